// A rolling upgrade, tested (issue 30): the previous release (releases.json: its commit, tagged) is built in a
// scratch copy and serves traffic on a PostgreSQL database; this checkout starts on the same database while it
// serves, applies its expand migrations, and both answer correctly throughout, each reading what the other
// wrote, and the previous release's worker keeps delivering webhooks. PostgreSQL only: several processes.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { inBatches } from "../helpers/fixtures.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startServerProcess, type ServerProcess } from "./helpers.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const { releases } = JSON.parse(readFileSync(path.join(ROOT, "releases.json"), "utf8")) as {
  releases: { version: string; tag: string; commit: string }[];
};
const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
const previous = releases.filter((r) => r.version !== version).at(-1)!;

const scratch = mkdtempSync(path.join(tmpdir(), "logistics-previous-"));
let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let rx: Receiver;
let old: ServerProcess;
let next: ServerProcess | undefined;

/** The previous release's server bundle, built from its commit (by its tag when the clone has tags). */
function buildPrevious(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  let commit = previous.commit;
  try {
    commit = git("rev-parse", `${previous.tag}^{commit}`);
  } catch {
    // No tags in this clone: the commit releases.json names.
  }
  expect(commit).toBe(previous.commit);
  const tree = path.join(scratch, "tree");
  mkdirSync(tree);
  execFileSync("sh", ["-c", `git archive ${commit} | tar -x -C ${JSON.stringify(tree)}`], { cwd: ROOT });
  // Its dependencies are this checkout's (a release adds packages; it does not change those the previous used).
  symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"));
  const main = path.join(tree, "dist/server/main.js");
  execFileSync(
    process.execPath,
    ["--input-type=module", "-e", "await (await import('./tools/build.mjs')).buildServer(process.argv[1])", main],
    { cwd: tree, stdio: "pipe" },
  );
  return main;
}

const ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_RETRY_SCHEDULE: "0.05,0.1", SEED_DEMO: "false" };

beforeAll(async () => {
  const main = buildPrevious();
  handle = await createTestDatabase({ empty: true });
  rx = await startReceiver();
  // The previous release creates its schema on the empty database, as its own install would.
  old = await startServerProcess({ ...ENV, DATABASE_URL: handle.url! }, undefined, main);
  await provisionAccount(handle.db, "merchant", "rolling.example.com", "rolling-secret-1");
  await provisionAccount(handle.db, "operator", "rolling-dock", "rolling-secret-2");
}, 180_000);
afterAll(async () => {
  await next?.stop();
  await old?.stop();
  await rx?.close();
  await handle?.close();
  rmSync(scratch, { recursive: true, force: true });
});

it(`the previous release (${previous.version}) serves while this one migrates and starts beside it; both answer correctly throughout`, async () => {
  const oldM = old.client("M-rolling.example.com", "rolling-secret-1");
  const oldW = old.client("W-rolling-dock", "rolling-secret-2");
  const ep = await oldM.POST("/webhook_endpoints/_create", {
    body: { url: rx.url("/rolling"), event_types: ["inbound_shipment.items_arrived"] },
  });
  expect(ep.response.status).toBe(201);

  const problems: string[] = [];
  const shipments: { id: string; by: string }[] = [];
  let arrivalsAcknowledged = 0;
  let stop = false;
  const traffic = async (who: string, m: () => LogisticsClient, w: () => LogisticsClient) => {
    for (let i = 0; !stop; i++) {
      const created = await m().POST("/inbound_shipments/_create", {
        body: { merchants_ref: `RU-${who}-${i}`, sender_name: "A", products: [{ merchants_id: "S", qty: 100 }] },
      });
      if (created.response.status !== 201) {
        problems.push(`${who} create: ${created.response.status} ${JSON.stringify(created.error)}`);
        continue;
      }
      shipments.push({ id: created.data!.shipment_id, by: who });
      // An arrival on a shipment the other version may have created.
      const target = shipments[Math.floor(Math.random() * shipments.length)]!;
      const arrival = await w().POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: target.id } },
        body: { arrivals: [{ merchants_id: "S", change: 1 }] },
      });
      if (arrival.response.status === 200) arrivalsAcknowledged++;
      else problems.push(`${who} arrival: ${arrival.response.status} ${JSON.stringify(arrival.error)}`);
      const read = await m().GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: target.id } } });
      if (read.response.status !== 200) problems.push(`${who} read of ${target.by}'s: ${read.response.status}`);
    }
  };
  const oldTraffic = [0, 1].map((n) =>
    traffic(
      `old${n}`,
      () => oldM,
      () => oldW,
    ),
  );

  // The previous release is serving traffic (a few shipments made) when this one starts.
  await expect.poll(() => shipments.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(3);
  // This release starts on the database the previous one is serving: its start applies the expand migrations.
  next = await startServerProcess({ ...ENV, DATABASE_URL: handle.url! });
  expect(next.proc.output()).not.toMatch(/"level":(50|60)/);
  const nextM = next.client("M-rolling.example.com", "rolling-secret-1");
  const nextW = next.client("W-rolling-dock", "rolling-secret-2");
  const newTraffic = [0, 1].map((n) =>
    traffic(
      `new${n}`,
      () => nextM,
      () => nextW,
    ),
  );
  // Both serve side by side until each version has created a few after the new one's start (waited for, not
  // timed: a loaded machine is slower).
  const byEach = () => ["old", "new"].map((v) => shipments.filter((s) => s.by.startsWith(v)).length);
  const oldBefore = byEach()[0]!;
  await expect
    .poll(() => Math.min(byEach()[0]! - oldBefore, byEach()[1]!), { timeout: 60_000, interval: 50 })
    .toBeGreaterThan(3);
  stop = true;
  await Promise.all([...oldTraffic, ...newTraffic]);

  expect(problems).toEqual([]);
  expect(shipments.filter((s) => s.by.startsWith("old")).length).toBeGreaterThan(3);
  expect(shipments.filter((s) => s.by.startsWith("new")).length).toBeGreaterThan(3);
  // Every arrival is counted, whichever version recorded it, and each version reads the other's.
  const counted = await inBatches(shipments, async (s, i) => {
    const r = await (i % 2 ? oldM : nextM).GET("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: s.id } },
    });
    expect(r.response.status).toBe(200);
    return r.data!.products[0]!.arrivedQty;
  });
  expect(counted.reduce((a, b) => a + b, 0)).toBe(arrivalsAcknowledged);
  // Both workers deliver: one event per arrival, each once.
  const got = await rx.waitFor(arrivalsAcknowledged, { path: "/rolling", timeoutMs: 30_000 });
  const ids = got.map((r) => (JSON.parse(r.body) as { event_id: string }).event_id);
  expect(new Set(ids).size).toBe(arrivalsAcknowledged);
  // The schema now has this release's migrations; the previous release still serves on it.
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(handle.db);
  expect(rows.map((r) => r.name)).toContain("0012_event_trace_parent");
  expect((await oldM.GET("/inbound_shipments", { params: { query: { limit: 1 } } })).response.status).toBe(200);
});
