// A delivery says which shipment its event is about, and GET /webhook_deliveries/{id} shows the exact body its
// attempts send (the envelope the receiver got, retry_count included); another merchant's delivery is 404.
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { arrive, createShipment, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import type { Receiver } from "../helpers/receiver.ts";
import { useWebhookServer, type TestServer } from "../helpers/server.ts";

type S = components["schemas"];

let srv: TestServer;
let rx: Receiver;
let m: LogisticsClient;
let w: LogisticsClient;
let seq = 0;

useWebhookServer(
  async (s, r) => {
    [srv, rx] = [s, r];
    w = await srv.operator();
  },
  // Generous: a loaded machine must not turn a slow answer into a failed delivery.
  { retrySchedule: [0.05, 0.1, 0.5], timeoutMs: 10_000 },
);
beforeEach(async () => {
  m = await srv.merchant(`delivery-detail-${++seq}.example.com`);
  rx.respond = () => 200;
});

async function endpoint(event_types: S["WebhookEventType"][]) {
  const path = `/detail-${seq}-${Math.random().toString(36).slice(2, 8)}`;
  const r = await m.POST("/webhook_endpoints/_create", { body: { url: rx.url(path), event_types } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  return { ...r.data!, path };
}

const detail = (c: LogisticsClient, delivery_id: string) =>
  c.GET("/webhook_deliveries/{delivery_id}", { params: { path: { delivery_id } } });

async function settled(webhookId: string, n: number) {
  let items: S["WebhookDelivery"][] = [];
  await expect
    .poll(
      async () => {
        const r = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
          params: { path: { webhook_id: webhookId } },
        });
        items = r.data!.items;
        return items.filter((d) => d.status === "succeeded").length;
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBe(n);
  return items;
}

describe("a delivery's shipment and payload", () => {
  it("names the shipment of every inbound shipment event, and shows exactly the body the receiver got", async () => {
    const ep = await endpoint([
      "inbound_shipment.items_arrived",
      "inbound_shipment.status_changed",
      "inbound_shipment.arrived_at_warehouse",
    ]);
    const id = await createShipment(m);
    const ref = (await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } })).data!
      .merchants_ref;
    // arrived_at_warehouse carries the whole shipment; items_arrived and status_changed its id at the top.
    const moved = await w.POST("/inbound_shipments/{shipment_id}/_status", {
      params: { path: { shipment_id: id } },
      body: { status: "arrived_at_warehouse" },
    });
    expect(moved.response.status).toBe(200);
    expect((await arrive(w, id, [{ merchants_id: "SKU-1001", change: 2 }])).response.status).toBe(200);

    const got = await rx.waitFor(4, { path: ep.path });
    const items = await settled(ep.id, 4);
    expect(items.map((d) => d.event_type).sort()).toEqual([
      "inbound_shipment.arrived_at_warehouse",
      "inbound_shipment.items_arrived",
      "inbound_shipment.status_changed",
      "inbound_shipment.status_changed",
    ]);
    for (const d of items) expect(d.shipment).toEqual({ id, merchants_ref: ref });

    // Each event's last request (a loaded machine may have needed a retry): the body of its last attempt.
    const all = rx.received.filter((r) => r.path === ep.path);
    expect(all.length).toBeGreaterThanOrEqual(got.length);
    const bodies = new Map(all.map((g) => [JSON.parse(g.body).event_id as string, JSON.parse(g.body) as unknown]));
    for (const d of items) {
      const r = await detail(m, d.id);
      expect(r.response.status).toBe(200);
      const { payload, ...rest } = r.data!;
      expect(rest).toEqual(d);
      expect(payload).toEqual(bodies.get(d.event_id));
      expect(payload).toMatchObject({ event_id: d.event_id, webhook_id: ep.id, retry_count: d.attempts - 1 });
    }
  });

  it("a test event is about no shipment; a pending delivery shows the next attempt's retry_count, a failed one its last", async () => {
    const ep = await endpoint(["webhook.test"]);
    const sent = await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } });
    expect(sent.response.status).toBe(202);
    await rx.waitFor(1, { path: ep.path });
    const [d] = await settled(ep.id, 1);
    expect(d!.shipment).toBeNull();
    const done = await detail(m, sent.data!.delivery_id);
    const received = rx.received.filter((r) => r.path === ep.path).at(-1)!;
    expect(done.data!.payload).toEqual(JSON.parse(received.body));
    expect(done.data!.payload).toMatchObject({
      event_type: "webhook.test",
      retry_count: d!.attempts - 1,
      payload: { message: expect.any(String) },
    });

    // Two attempts failed, the third is an hour away; then, a day later, eight in all and no more.
    const db = srv.handle.db;
    await sql`update webhook_deliveries set status = 'pending', attempts = 2, due_at = now() + interval '1 hour'
      where id = ${d!.id}`.execute(db);
    const pending = await detail(m, d!.id);
    expect(pending.data).toMatchObject({ status: "pending", attempts: 2, next_attempt_at: expect.any(String) });
    expect(pending.data!.payload.retry_count).toBe(2);
    await sql`update webhook_deliveries set status = 'failed', attempts = 8, due_at = null where id = ${d!.id}`.execute(
      db,
    );
    const failed = await detail(m, d!.id);
    expect(failed.data).toMatchObject({ status: "failed", attempts: 8, next_attempt_at: null });
    expect(failed.data!.payload.retry_count).toBe(7);
    const { retry_count: _a, ...same } = failed.data!.payload;
    const { retry_count: _b, ...before } = done.data!.payload;
    expect(same).toEqual(before);
  });

  it("another merchant's delivery and an unknown one are 404 not_found; a malformed id is 400 validation_failed", async () => {
    const ep = await endpoint(["webhook.test"]);
    const sent = await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } });
    expect(sent.response.status).toBe(202);
    const other = await srv.merchant(`delivery-detail-other-${seq}.example.com`);
    expectError(await expectUnchanged(srv, () => detail(other, sent.data!.delivery_id)), 404, "not_found");
    expectError(await detail(m, "0123456789abcdef01234567"), 404, "not_found");
    expectError(await detail(m, "not-a-delivery"), 400, "validation_failed", ["/params/delivery_id"]);
    expectError(await detail(m, "0123456789ABCDEF01234567"), 400, "validation_failed", ["/params/delivery_id"]);
    // The endpoint deleted, its deliveries are no longer readable.
    expect(
      (await m.DELETE("/webhook_endpoints/{webhook_id}", { params: { path: { webhook_id: ep.id } } })).response.status,
    ).toBe(200);
    expectError(await detail(m, sent.data!.delivery_id), 404, "not_found");
  });
});
