// Power cuts (issue 52): the server as `npm start` runs it, on the embedded database whose directory lies on
// test/helpers/power-cut-fs.py, a file system that keeps whatever was not flushed in memory and drops it when the
// power is cut. Four writers create shipments and note every one answered 201; at a random moment the power is cut
// (the file system drops everything unflushed and answers nothing more, the server is killed with SIGKILL at the
// same instant); the directory is mounted and opened again by a new server, which must start and hold every write
// ever acknowledged (each of the last round's by GET, all of them through the list). Then again, POWER_CUTS times
// (npm test: a few; `npm run test:power-cut` in .ci/run: 50). The same with PGLITE_DURABILITY=relaxed must lose an
// acknowledged write, or the file system proves nothing and the test fails.
// `npm test` keeps the short durable run only (issue 52: at most 60 s); the relaxed proof and the failing disk run
// in the full step, `npm run test:power-cut`, which sets POWER_CUTS and is a step of .ci/run of its own.
// Needs /dev/fuse, fusermount3 and python3-pyfuse3 (.ci/run installs them): without them it fails, never skips.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { mountPowerCutFs, type PowerCutFs } from "../helpers/power-cut-fs.ts";
import { cli, startServerProcess, type ServerProcess } from "./helpers.ts";

const MERCHANT = "power.example.com";
const SECRET = "power-secret-1234";
const WRITERS = 4;
const CUTS = Number(process.env.POWER_CUTS || 2);
const FULL = process.env.POWER_CUTS !== undefined;
const dir = mkdtempSync(path.join(tmpdir(), "logistics-power-cut-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Written {
  id: string;
  ref: string;
  sender: string;
  product: string;
}

interface Round {
  acknowledged: number;
  /** Acknowledged writes the reopened directory does not hold as answered, with what it holds instead. */
  lost: { id: string; found: string }[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates shipments until the server stops answering; every one answered 201 goes into `acknowledged`. */
async function writer(s: ServerProcess, w: number, round: number, acknowledged: Written[]) {
  const m = s.client(`M-${MERCHANT}`, SECRET);
  for (let i = 0; ; i++) {
    const ref = `R${round}-W${w}-${i}`;
    const written = { ref, sender: `Sender ${ref}`, product: `P-${ref}` };
    try {
      const r = await m.POST("/inbound_shipments/_create", {
        body: {
          merchants_ref: ref,
          sender_name: written.sender,
          products: [{ merchants_id: written.product, qty: 1 }],
        },
      });
      if (r.response.status !== 201) return;
      acknowledged.push({ id: r.data!.shipment_id, ...written });
    } catch {
      return; // the power is off: no answer
    }
  }
}

/** What the reopened server holds of `written`: each of `newest` by GET, all of them through the list. */
async function missing(s: ServerProcess, written: Written[], newest: Written[]) {
  const m = s.client(`M-${MERCHANT}`, SECRET);
  const lost: Round["lost"] = [];
  const seen = (
    w: Written,
    got?: { merchants_ref: string; sender_name: string; products: { product: { merchants_id: string } }[] },
  ) =>
    got?.merchants_ref === w.ref && got.sender_name === w.sender && got.products[0]?.product.merchants_id === w.product;
  for (const w of newest) {
    const r = await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: w.id } } });
    if (r.response.status !== 200 || !seen(w, r.data)) lost.push({ id: w.id, found: `GET ${r.response.status}` });
  }
  const listed = new Map<string, Parameters<typeof seen>[1]>();
  for (let cursor: string | undefined; ;) {
    const r = await m.GET("/inbound_shipments", { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } });
    expect(r.response.status).toBe(200);
    for (const item of r.data!.items) listed.set(item.id, item);
    if (!r.data!.next_cursor) break;
    cursor = r.data!.next_cursor;
  }
  for (const w of written)
    if (!seen(w, listed.get(w.id)) && !lost.some((l) => l.id === w.id)) lost.push({ id: w.id, found: "not listed" });
  return lost;
}

/** A data directory with the merchant on `name`'s disk, and where it is mounted. */
async function prepare(name: string, durability: "durable" | "relaxed") {
  const backing = path.join(dir, name, "disk");
  const mountpoint = path.join(dir, name, "mnt");
  // No request limit: four writers as fast as the server goes, and a list of every write after each cut, passed the
  // merchant's 6,000 a minute once the server got faster (a 429 on the list, not a lost write). Limits are not this
  // test's subject (test/http/*-limits.test.ts are).
  const env = {
    DATABASE_URL: "",
    PGLITE_DIR: path.join(mountpoint, "db"),
    PGLITE_DURABILITY: durability,
    RATE_LIMIT_PER_MINUTE: "0",
  };
  cpSync(inject("pgliteTemplate"), path.join(backing, "db"), { recursive: true });
  const created = await cli(["merchant", "create", MERCHANT, "--secret", SECRET], {
    ...env,
    PGLITE_DIR: path.join(backing, "db"),
  });
  expect(created.code, created.output).toBe(0);
  return { backing, mountpoint, env };
}

/** `cuts` rounds of writing and cutting the power on one data directory; what each reopening found missing. */
async function powerCuts(durability: "durable" | "relaxed", cuts: number): Promise<Round[]> {
  const { backing, mountpoint, env } = await prepare(durability, durability);
  const written: Written[] = [];
  const rounds: Round[] = [];
  let newest: Written[] = [];
  for (let round = 0; ; round++) {
    const fs: PowerCutFs = await mountPowerCutFs(backing, mountpoint);
    let server: ServerProcess | undefined;
    try {
      server = await startServerProcess(env, undefined, undefined, { readyTimeoutMs: 120_000 });
      if (round > 0) rounds.push({ acknowledged: newest.length, lost: await missing(server, written, newest) });
      if (round === cuts) {
        expect(await server.stop()).toBe(0);
        return rounds;
      }
      newest = [];
      const writing = Array.from({ length: WRITERS }, (_, w) => writer(server!, w, round, newest));
      // A random moment once the writers are under way: at least one write answered, then 0-2 s more.
      const until = Date.now() + 60_000;
      while (newest.length === 0 && Date.now() < until) await sleep(20);
      await sleep(Math.random() * 2000);
      await fs.cut();
      server.proc.child.kill("SIGKILL");
      await Promise.all([server.proc.exited, ...writing]);
      written.push(...newest);
    } finally {
      if (server?.proc.child.exitCode === null && server.proc.child.signalCode === null)
        server.proc.child.kill("SIGKILL");
      await server?.proc.exited;
      await fs.stop();
    }
  }
}

it(
  `durable: ${CUTS} power cuts under ${WRITERS} writers, and every reopening holds every acknowledged write`,
  { timeout: 120_000 + CUTS * 60_000 },
  async () => {
    const started = Date.now();
    const rounds = await powerCuts("durable", CUTS);
    const acknowledged = rounds.reduce((n, r) => n + r.acknowledged, 0);
    console.log(
      `power cuts (durable): ${rounds.length} cuts, ${acknowledged} acknowledged writes, none lost, ` +
        `${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(rounds).toHaveLength(CUTS);
    expect(rounds.flatMap((r) => r.lost)).toEqual([]);
    expect(rounds.every((r) => r.acknowledged > 0)).toBe(true);
  },
);

it.runIf(FULL)(
  "relaxed: the same run loses acknowledged writes (proof that the file system drops what was not flushed)",
  { timeout: 240_000 },
  async () => {
    const rounds = await powerCuts("relaxed", 1);
    expect(rounds[0]!.acknowledged).toBeGreaterThan(0);
    expect(rounds[0]!.lost.length).toBeGreaterThan(0);
  },
);

it.runIf(FULL)(
  "a failed flush (the disk answers EIO) stops the server before it answers the write; restarted, it has every answered one",
  { timeout: 240_000 },
  async () => {
    const { backing, mountpoint, env } = await prepare("eio", "durable");
    const fs = await mountPowerCutFs(backing, mountpoint);
    let server: ServerProcess | undefined;
    const answered: Written[] = [];
    try {
      server = await startServerProcess(env, undefined, undefined, { readyTimeoutMs: 120_000 });
      const m = server.client(`M-${MERCHANT}`, SECRET);
      const create = (ref: string) =>
        m.POST("/inbound_shipments/_create", {
          body: { merchants_ref: ref, sender_name: `Sender ${ref}`, products: [{ merchants_id: `P-${ref}`, qty: 1 }] },
        });
      const first = await create("EIO-1");
      expect(first.response.status).toBe(201);
      answered.push({ id: first.data!.shipment_id, ref: "EIO-1", sender: "Sender EIO-1", product: "P-EIO-1" });
      await fs.failFsync();
      await expect(create("EIO-2")).rejects.toThrow();
      expect(await server.proc.exited).toBe(1);
      expect(server.proc.output()).toMatch(/could not flush its files to the disk: stopping/);
    } finally {
      if (server?.proc.child.exitCode === null) server.proc.child.kill("SIGKILL");
      await server?.proc.exited;
      // Stopped without flushing what it holds: the disk keeps what was flushed before the failure.
      await fs.stop();
    }
    const again = await mountPowerCutFs(backing, mountpoint);
    try {
      server = await startServerProcess(env, undefined, undefined, { readyTimeoutMs: 120_000 });
      expect(await missing(server, answered, answered)).toEqual([]);
      expect(await server.stop()).toBe(0);
    } finally {
      if (server.proc.child.exitCode === null) server.proc.child.kill("SIGKILL");
      await again.stop();
    }
  },
);
