// Two server processes on one PostgreSQL share the webhook deliveries: every event is delivered, and no
// attempt is made twice (SKIP LOCKED claims). PostgreSQL only: PGlite belongs to one process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogisticsClient, type LogisticsClient, type WebhookEvent } from "../../client/index.ts";
import { verifyWebhook } from "../../client/webhooks.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { freePort, run, waitReady, type Proc } from "./helpers.ts";

describe("two dispatchers on one PostgreSQL", () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let rx: Receiver;
  const servers: Proc[] = [];
  const clients: { m: LogisticsClient; w: LogisticsClient }[] = [];

  beforeAll(async () => {
    rx = await startReceiver();
    handle = await createTestDatabase();
    await provisionAccount(handle.db, "merchant", "hooks-multi.example.com", "multi-secret-1");
    await provisionAccount(handle.db, "operator", "hooks-multi-dock", "multi-secret-2");
    await Promise.all([0, 1].map(async () => {
      const port = await freePort();
      const p = run("server/main.ts", [], {
        DATABASE_URL: handle.url!, PORT: String(port), SEED_DEMO: "false", LOG_LEVEL: "debug",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_RETRY_SCHEDULE: "0.05,0.1", WEBHOOK_TIMEOUT_MS: "2000",
      });
      servers.push(p);
      const origin = `http://127.0.0.1:${port}`;
      await waitReady(origin, p);
      const baseUrl = `${origin}/2015-01-01`;
      clients.push({
        m: createLogisticsClient({ baseUrl, username: "M-hooks-multi.example.com", secret: "multi-secret-1" }),
        w: createLogisticsClient({ baseUrl, username: "W-hooks-multi-dock", secret: "multi-secret-2" }),
      });
    }));
  });
  afterAll(async () => {
    for (const s of servers) s.child.kill("SIGTERM");
    await Promise.all(servers.map((s) => s.exited));
    await rx?.close();
    await handle?.close();
  });

  it("delivers each event once, whichever instance recorded it", async () => {
    const [a, b] = clients as [(typeof clients)[0], (typeof clients)[0]];
    const ep = await a.m.POST("/webhook_endpoints/_create", { body: { url: rx.url("/multi"), event_types: ["inbound_shipment.items_arrived", "inbound_shipment.status_changed"] } });
    const secret = ep.data!.secret;
    rx.respond = () => ({ status: 200, delayMs: 5 });
    const ids = await Promise.all([a, b, a].map(async (c, i) =>
      (await c.m.POST("/inbound_shipments/_create", { body: { merchants_ref: `PO-${i}`, sender_name: "A", products: [{ merchants_id: "S", qty: 100 }] } })).data!.shipment_id));
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) =>
      clients[i % 2]!.w.POST("/inbound_shipments/{shipment_id}/arrivals", { params: { path: { shipment_id: ids[i % 3]! } }, body: { arrivals: [{ merchants_id: "S", change: 1 }] } })));
    expect(results.map((r) => r.response.status)).toEqual(Array(60).fill(200));

    // 60 items_arrived and 3 moves to processing.
    const got = await rx.waitFor(63, { path: "/multi", timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 500));
    const events = rx.received.map((r) => verifyWebhook(secret, r.headers, r.body) as WebhookEvent);
    expect(events).toHaveLength(63);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(63);
    expect(events.every((e) => e.retry_count === 0)).toBe(true);
    expect(got).toHaveLength(63);

    const list = await b.m.GET("/webhook_endpoints/{webhook_id}/deliveries", { params: { path: { webhook_id: ep.data!.id }, query: { limit: 100 } } });
    expect(list.data!.items).toHaveLength(63);
    expect(list.data!.items.every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
    const delivered = servers.map((s) => s.output().split("\n").filter((l) => l.includes('"webhook delivered"')).length);
    expect(delivered[0]! + delivered[1]!, `delivered by each instance: ${delivered.join(", ")}`).toBe(63);
  });
});

describe("SERVER_ROLE: an API process and a worker process on one PostgreSQL", () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let rx: Receiver;
  const procs: Proc[] = [];
  const origins: Record<"api" | "worker", string> = { api: "", worker: "" };

  beforeAll(async () => {
    rx = await startReceiver();
    handle = await createTestDatabase();
    await provisionAccount(handle.db, "merchant", "roles.example.com", "roles-secret-1");
    await provisionAccount(handle.db, "operator", "roles-dock", "roles-secret-2");
    for (const role of ["api", "worker"] as const) {
      const port = await freePort();
      const p = run("server/main.ts", [], {
        DATABASE_URL: handle.url!, PORT: String(port), SEED_DEMO: "false", LOG_LEVEL: "debug", SERVER_ROLE: role,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_RETRY_SCHEDULE: "0.05,0.1", WEBHOOK_TIMEOUT_MS: "2000",
      });
      procs.push(p);
      origins[role] = `http://127.0.0.1:${port}`;
      await waitReady(origins[role], p);
    }
  });
  afterAll(async () => {
    for (const p of procs) p.child.kill("SIGTERM");
    await Promise.all(procs.map((p) => p.exited));
    await rx?.close();
    await handle?.close();
  });

  it("the API process records, the worker delivers; the worker serves no API", async () => {
    const baseUrl = `${origins.api}/2015-01-01`;
    const m = createLogisticsClient({ baseUrl, username: "M-roles.example.com", secret: "roles-secret-1" });
    const w = createLogisticsClient({ baseUrl, username: "W-roles-dock", secret: "roles-secret-2" });
    const ep = await m.POST("/webhook_endpoints/_create", { body: { url: rx.url("/roles"), event_types: ["inbound_shipment.items_arrived"] } });
    const created = await m.POST("/inbound_shipments/_create", { body: { merchants_ref: "PO-ROLES", sender_name: "A", products: [{ merchants_id: "S", qty: 3 }] } });
    for (let i = 0; i < 3; i++) {
      expect((await w.POST("/inbound_shipments/{shipment_id}/arrivals", { params: { path: { shipment_id: created.data!.shipment_id } }, body: { arrivals: [{ merchants_id: "S", change: 1 }] } })).response.status).toBe(200);
    }
    const got = await rx.waitFor(3, { path: "/roles" });
    for (const r of got) expect(verifyWebhook(ep.data!.secret, r.headers, r.body)).toMatchObject({ event_type: "inbound_shipment.items_arrived" });
    // The worker logs each delivery once the answer is in: a moment after the receiver has it.
    await expect.poll(() => procs[1]!.output().split("\n").filter((l) => l.includes('"webhook delivered"')).length).toBe(3);
    expect(procs[0]!.output()).not.toContain('"webhook delivered"');
    expect(procs[0]!.output()).toContain("API only (SERVER_ROLE=api)");

    // The worker answers health and readiness, and nothing of the API.
    expect((await fetch(`${origins.worker}/readyz`)).status).toBe(200);
    const notApi = await fetch(`${origins.worker}/2015-01-01/inbound_shipments`, { headers: { authorization: `Basic ${btoa("M-roles.example.com:roles-secret-1")}` } });
    expect(notApi.status).toBe(404);
    expect(await notApi.json()).toMatchObject({ success: false, code: "not_found" });
  });
});
