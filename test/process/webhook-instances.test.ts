// Two server processes on one PostgreSQL share the webhook deliveries: every event is delivered, and no
// attempt is made twice (SKIP LOCKED claims). PostgreSQL only: PGlite belongs to one process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient, WebhookEvent } from "../../client/index.ts";
import { verifyWebhook } from "../../client/webhooks.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startServerProcess, type ServerProcess } from "./helpers.ts";

const HOOKS = {
  LOG_LEVEL: "debug",
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
  WEBHOOK_RETRY_SCHEDULE: "0.05,0.1",
  WEBHOOK_TIMEOUT_MS: "2000",
};

describe("two dispatchers on one PostgreSQL", () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let rx: Receiver;
  let servers: ServerProcess[] = [];
  const clients: { m: LogisticsClient; w: LogisticsClient }[] = [];

  beforeAll(async () => {
    rx = await startReceiver();
    handle = await createTestDatabase();
    await provisionAccount(handle.db, "merchant", "hooks-multi.example.com", "multi-secret-1");
    await provisionAccount(handle.db, "operator", "hooks-multi-dock", "multi-secret-2");
    servers = await Promise.all([0, 1].map(() => startServerProcess({ ...HOOKS, DATABASE_URL: handle.url! })));
    for (const srv of servers)
      clients.push({
        m: srv.client("M-hooks-multi.example.com", "multi-secret-1"),
        w: srv.client("W-hooks-multi-dock", "multi-secret-2"),
      });
  });
  afterAll(async () => {
    await Promise.all(servers.map((srv) => srv.stop()));
    await rx?.close();
    await handle?.close();
  });

  it("delivers each event once, whichever instance recorded it", async () => {
    const [a, b] = clients as [(typeof clients)[0], (typeof clients)[0]];
    const ep = await a.m.POST("/webhook_endpoints/_create", {
      body: {
        url: rx.url("/multi"),
        event_types: ["inbound_shipment.items_arrived", "inbound_shipment.status_changed"],
      },
    });
    const secret = ep.data!.secret;
    rx.respond = () => ({ status: 200, delayMs: 5 });
    const ids = await Promise.all(
      [a, b, a].map(
        async (c, i) =>
          (
            await c.m.POST("/inbound_shipments/_create", {
              body: { merchants_ref: `PO-${i}`, sender_name: "A", products: [{ merchants_id: "S", qty: 100 }] },
            })
          ).data!.shipment_id,
      ),
    );
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        clients[i % 2]!.w.POST("/inbound_shipments/{shipment_id}/arrivals", {
          params: { path: { shipment_id: ids[i % 3]! } },
          body: { arrivals: [{ merchants_id: "S", change: 1 }] },
        }),
      ),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(60).fill(200));

    // 60 items_arrived and 3 moves to processing.
    const got = await rx.waitFor(63, { path: "/multi", timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 500));
    const events = rx.received.map((r) => verifyWebhook(secret, r.headers, r.body) as WebhookEvent);
    expect(events).toHaveLength(63);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(63);
    expect(events.every((e) => e.retry_count === 0)).toBe(true);
    expect(got).toHaveLength(63);

    const list = await b.m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
      params: { path: { webhook_id: ep.data!.id }, query: { limit: 100 } },
    });
    expect(list.data!.items).toHaveLength(63);
    expect(list.data!.items.every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
    const delivered = servers.map(
      (srv) =>
        srv.proc
          .output()
          .split("\n")
          .filter((l) => l.includes('"webhook delivered"')).length,
    );
    expect(delivered[0]! + delivered[1]!, `delivered by each instance: ${delivered.join(", ")}`).toBe(63);
  });
});

describe("SERVER_ROLE: an API process and a worker process on one PostgreSQL", () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let rx: Receiver;
  let api: ServerProcess;
  let worker: ServerProcess;

  beforeAll(async () => {
    rx = await startReceiver();
    handle = await createTestDatabase();
    await provisionAccount(handle.db, "merchant", "roles.example.com", "roles-secret-1");
    await provisionAccount(handle.db, "operator", "roles-dock", "roles-secret-2");
    api = await startServerProcess({ ...HOOKS, DATABASE_URL: handle.url!, SERVER_ROLE: "api" });
    worker = await startServerProcess({ ...HOOKS, DATABASE_URL: handle.url!, SERVER_ROLE: "worker" });
  });
  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await rx?.close();
    await handle?.close();
  });

  it("the API process records, the worker delivers; the worker serves no API", async () => {
    const m = api.client("M-roles.example.com", "roles-secret-1");
    const w = api.client("W-roles-dock", "roles-secret-2");
    const ep = await m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url("/roles"), event_types: ["inbound_shipment.items_arrived"] },
    });
    const created = await m.POST("/inbound_shipments/_create", {
      body: { merchants_ref: "PO-ROLES", sender_name: "A", products: [{ merchants_id: "S", qty: 3 }] },
    });
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
            params: { path: { shipment_id: created.data!.shipment_id } },
            body: { arrivals: [{ merchants_id: "S", change: 1 }] },
          })
        ).response.status,
      ).toBe(200);
    }
    const got = await rx.waitFor(3, { path: "/roles" });
    for (const r of got)
      expect(verifyWebhook(ep.data!.secret, r.headers, r.body)).toMatchObject({
        event_type: "inbound_shipment.items_arrived",
      });
    // The worker logs each delivery once the answer is in: a moment after the receiver has it.
    await expect
      .poll(
        () =>
          worker.proc
            .output()
            .split("\n")
            .filter((l) => l.includes('"webhook delivered"')).length,
      )
      .toBe(3);
    expect(api.proc.output()).not.toContain('"webhook delivered"');
    expect(api.proc.output()).toContain("API only (SERVER_ROLE=api)");

    // The worker answers health and readiness, and nothing of the API.
    expect((await fetch(`${worker.origin}/readyz`)).status).toBe(200);
    const notApi = await fetch(`${worker.origin}/2015-01-01/inbound_shipments`, {
      headers: { authorization: `Basic ${btoa("M-roles.example.com:roles-secret-1")}` },
    });
    expect(notApi.status).toBe(404);
    expect(await notApi.json()).toMatchObject({ success: false, code: "not_found" });
  });
});
