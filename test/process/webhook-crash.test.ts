// `kill -9` of the server while it writes and delivers webhooks: after a restart every acknowledged write
// is there and every committed arrival is delivered. The real `npm start` entry point as a child process, on the engine this project runs on.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createLogisticsClient, type WebhookEvent } from "../../client/index.ts";
import { verifyWebhook } from "../../client/webhooks.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { openDatabase } from "../../server/db/database.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startReceiver, type Received, type Receiver } from "../helpers/receiver.ts";
import { freePort, run, SERVER_MAIN, waitReady, type Proc } from "./helpers.ts";

const WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
  WEBHOOK_RETRY_SCHEDULE: "0.05,0.1,0.2,0.5,1",
  WEBHOOK_TIMEOUT_MS: "1000",
};

let env: Record<string, string>;
let cleanup: () => Promise<void>;
let rx: Receiver;
const procs: Proc[] = [];

beforeAll(async () => {
  rx = await startReceiver();
  const provision = async (db: Parameters<typeof provisionAccount>[0]) => {
    await provisionAccount(db, "merchant", "crash.example.com", "crash-secret-1");
    await provisionAccount(db, "operator", "crash-dock", "crash-secret-2");
  };
  if (process.env.TEST_DB === "postgres") {
    const handle = await createTestDatabase();
    await provision(handle.db);
    env = { DATABASE_URL: handle.url! };
    cleanup = () => handle.close();
  } else {
    // PGlite belongs to one process: prepare it here, close it, then hand the directory to the server.
    const dir = mkdtempSync(path.join(tmpdir(), "logistics-crash-"));
    cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
    const handle = await openDatabase({ pgliteDir: path.join(dir, "db") });
    await provision(handle.db);
    await handle.close();
    env = { DATABASE_URL: "", PGLITE_DIR: path.join(dir, "db") };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGKILL");
  await Promise.all(procs.map((p) => p.exited));
  await rx?.close();
  await cleanup?.();
});

async function startServer() {
  const port = await freePort();
  const p = run(SERVER_MAIN, [], { ...env, ...WEBHOOKS, PORT: String(port), SEED_DEMO: "false", LOG_LEVEL: "warn" });
  procs.push(p);
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(origin, p);
  const baseUrl = `${origin}/2015-01-01`;
  return {
    proc: p,
    m: createLogisticsClient({ baseUrl, username: "M-crash.example.com", secret: "crash-secret-1" }),
    w: createLogisticsClient({ baseUrl, username: "W-crash-dock", secret: "crash-secret-2" }),
  };
}

describe("kill -9 during writes and deliveries", () => {
  it("every acknowledged write is there after a restart, and every committed arrival is delivered", async () => {
    const a = await startServer();
    const ep = await a.m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url("/crash"), event_types: ["inbound_shipment.items_arrived"] },
    });
    expect(ep.response.status).toBe(201);
    const secret = ep.data!.secret;
    const created = await a.m.POST("/inbound_shipments/_create", {
      body: { merchants_ref: "PO-CRASH", sender_name: "A", products: [{ merchants_id: "S", qty: 100 }] },
    });
    const shipmentId = created.data!.shipment_id;

    // A slow receiver that fails everything until the restart: deliveries are in flight or waiting for a
    // retry when the server dies, and every acknowledged (2xx) delivery is the restarted server's.
    rx.respond = () => ({ status: 503, delayMs: 250 });
    const acknowledged: number[] = [];
    const arrivals = Array.from({ length: 20 }, async (_, i) => {
      const r = await a.w.POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: shipmentId } },
        body: { arrivals: [{ merchants_id: "S", change: 1 }] },
      });
      if (r.response.status === 200) acknowledged.push(i);
    });
    // New shipments written at the same time: each one answered 201 must be there after the restart.
    // Four writers that go on until the process dies, so that writes are in flight at the kill.
    const createdIds: string[] = [];
    let sent = 0;
    let killed = false;
    const creates = Array.from({ length: 4 }, async () => {
      while (!killed) {
        const n = sent++;
        const r = await a.m
          .POST("/inbound_shipments/_create", {
            body: { merchants_ref: `CRASH-${n}`, sender_name: "A", products: [{ merchants_id: `S-${n}`, qty: n + 1 }] },
          })
          .catch(() => undefined);
        if (r?.response.status === 201) createdIds.push(r.data!.shipment_id);
      }
    });
    await rx.waitFor(1, { path: "/crash" });
    // Waited for, not timed: a loaded machine answers fewer creates a second.
    await expect.poll(() => createdIds.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(10);
    a.proc.child.kill("SIGKILL");
    killed = true;
    await Promise.allSettled([...arrivals, ...creates]);
    await a.proc.exited;
    expect(acknowledged.length).toBeGreaterThan(0);

    const accepted: Received[] = [];
    rx.respond = (r) => {
      accepted.push(r);
      return 200;
    };
    const b = await startServer();
    for (const id of createdIds)
      expect(
        (await b.m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } })).response.status,
      ).toBe(200);
    const crashRefs: { merchants_ref: string }[] = [];
    for (let cursor: string | undefined; ;) {
      const page = await b.m.GET("/inbound_shipments", {
        params: { query: { limit: 100, ...(cursor && { cursor }) } },
      });
      crashRefs.push(...page.data!.items.filter((s) => s.merchants_ref.startsWith("CRASH-")));
      if (!page.data!.next_cursor) break;
      cursor = page.data!.next_cursor;
    }
    // A few more may have committed unanswered; none answered is missing, none is there twice.
    expect(crashRefs.length).toBeGreaterThanOrEqual(createdIds.length);
    expect(new Set(crashRefs.map((s) => s.merchants_ref)).size).toBe(crashRefs.length);
    const shipment = await b.m.GET("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: shipmentId } },
    });
    // Committed arrivals: at least the acknowledged ones (a few more may have committed unanswered).
    const recorded = shipment.data!.products[0]!.arrivedQty;
    expect(recorded).toBeGreaterThanOrEqual(acknowledged.length);

    // Each committed arrival is one items_arrived event, and each reaches the receiver, verified.
    const byEvent = new Map<string, WebhookEvent>();
    await expect
      .poll(
        () => {
          for (const r of accepted) {
            const e = verifyWebhook(secret, r.headers, r.body) as WebhookEvent;
            byEvent.set(e.event_id, e);
          }
          return byEvent.size;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(recorded);
    const totals = [...byEvent.values()]
      .map((e) => (e.event_type === "inbound_shipment.items_arrived" ? e.payload.products[0]!.arrivedQty : -1))
      .sort((x, y) => x - y);
    expect(totals).toEqual(Array.from({ length: recorded }, (_, i) => i + 1));

    const pending = async () => {
      const l = await b.m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
        params: { path: { webhook_id: ep.data!.id }, query: { limit: 100 } },
      });
      expect(l.data!.items).toHaveLength(recorded);
      return l.data!.items.filter((d) => d.status !== "succeeded").length;
    };
    await expect.poll(pending, { timeout: 10_000 }).toBe(0);

    b.proc.child.kill("SIGTERM");
    expect(await b.proc.exited).toBe(0);
  }, 120_000); // two server processes started and one killed: slow on a busy machine
});
