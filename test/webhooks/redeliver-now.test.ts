// Re-delivering a pending delivery attempts it now (its next attempt was minutes away), unless the receiver's own
// Retry-After is still in force: then 409 conflict naming the time, with Retry-After, and nothing changes.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import type { Answer, Receiver } from "../helpers/receiver.ts";
import { useWebhookServer, type TestServer } from "../helpers/server.ts";

type Delivery = components["schemas"]["WebhookDelivery"];

let srv: TestServer;
let rx: Receiver;
let seq = 0;

// After a failure the next attempt is a minute away (48-72 s with jitter): anything sooner is the re-delivery.
useWebhookServer(
  (s, r) => {
    [srv, rx] = [s, r];
  },
  { retrySchedule: [60, 60], timeoutMs: 5000 },
);

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00/;

/** A merchant whose endpoint answered its first test event with `first`, its delivery pending after that attempt. */
async function pendingAfter(first: Answer) {
  const m = await srv.merchant(`redeliver-now-${++seq}.example.com`);
  const path = `/redeliver-now-${seq}`;
  let answered = 0;
  rx.respond = (req) => (req.path === path && answered++ === 0 ? first : 200);
  const ep = await m.POST("/webhook_endpoints/_create", { body: { url: rx.url(path), event_types: ["webhook.test"] } });
  const webhook_id = ep.data!.id;
  const sent = await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id } } });
  expect(sent.response.status).toBe(202);
  const list = async () =>
    (await m.GET("/webhook_endpoints/{webhook_id}/deliveries", { params: { path: { webhook_id } } })).data!.items;
  let delivery: Delivery | undefined;
  await expect
    .poll(async () => ((delivery = (await list())[0]), delivery?.last_attempt_at ?? null), {
      timeout: 15_000,
      interval: 50,
    })
    .not.toBeNull();
  expect(delivery).toMatchObject({ status: "pending", attempts: 1 });
  expect(Date.parse(delivery!.next_attempt_at!) - Date.now()).toBeGreaterThan(40_000);
  return { m, path, delivery: delivery!, list };
}

const redeliver = (m: LogisticsClient, delivery_id: string) =>
  m.POST("/webhook_deliveries/{delivery_id}/_redeliver", { params: { path: { delivery_id } } });

describe("POST /webhook_deliveries/{id}/_redeliver on a pending delivery", () => {
  it("attempts it now: 202 naming the same delivery, sent within seconds, and it succeeds", async () => {
    // A 503 without Retry-After: the schedule's wait, not the receiver's.
    const { m, path, delivery, list } = await pendingAfter({ status: 503 });
    const asked = Date.now();
    const r = await redeliver(m, delivery.id);
    expect(r.response.status).toBe(202);
    expect(r.data).toEqual({ success: true, event_id: delivery.event_id, delivery_id: delivery.id });
    const got = await rx.waitFor(2, { path, timeoutMs: 15_000 });
    expect(Date.now() - asked).toBeLessThan(15_000);
    expect(JSON.parse(got[1]!.body)).toMatchObject({ event_id: delivery.event_id, retry_count: 1 });
    await expect
      .poll(async () => (await list()).map((d) => [d.id, d.status, d.attempts]), { timeout: 10_000 })
      .toEqual([[delivery.id, "succeeded", 2]]);
  });

  it("is 409 conflict naming the time while the receiver's Retry-After is in force, with Retry-After; nothing changes", async () => {
    const { m, path, delivery, list } = await pendingAfter({ status: 429, headers: { "Retry-After": "45" } });
    const r = await expectUnchanged(srv, () => redeliver(m, delivery.id));
    const error = expectError(r, 409, "conflict");
    const until = ISO.exec(error.message)?.[0];
    expect(error.message).toBe(
      `The receiver asked for time with Retry-After: it is not called again before ${until}. Re-deliver then, or let the next attempt come as scheduled.`,
    );
    const left = (Date.parse(until!) - Date.now()) / 1000;
    expect(left).toBeGreaterThan(35);
    expect(left).toBeLessThanOrEqual(46);
    const retryAfter = Number(r.response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(35);
    expect(retryAfter).toBeLessThanOrEqual(46);
    await new Promise((res) => setTimeout(res, 500));
    expect(rx.received.filter((x) => x.path === path)).toHaveLength(1);
    expect((await list()).map((d) => [d.id, d.status, d.attempts])).toEqual([[delivery.id, "pending", 1]]);
  });

  it("attempts it now once the receiver's Retry-After has passed, though the schedule's wait has not", async () => {
    const { m, path, delivery } = await pendingAfter({ status: 503, headers: { "Retry-After": "1" } });
    await new Promise((res) => setTimeout(res, 1500));
    const r = await redeliver(m, delivery.id);
    expect(r.response.status).toBe(202);
    expect(r.data!.delivery_id).toBe(delivery.id);
    await rx.waitFor(2, { path, timeoutMs: 15_000 });
  });

  it("while an attempt is in flight: 202 naming it, and no second request", async () => {
    const m = await srv.merchant(`redeliver-now-${++seq}.example.com`);
    const path = `/redeliver-now-${seq}`;
    rx.respond = (req) => (req.path === path ? { status: 500, delayMs: 1500 } : 200);
    const ep = await m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url(path), event_types: ["webhook.test"] },
    });
    const sent = await m.POST("/webhook_endpoints/{webhook_id}/_test", {
      params: { path: { webhook_id: ep.data!.id } },
    });
    await rx.waitFor(1, { path });
    const r = await redeliver(m, sent.data!.delivery_id);
    expect(r.response.status).toBe(202);
    expect(r.data!.delivery_id).toBe(sent.data!.delivery_id);
    await new Promise((res) => setTimeout(res, 2500));
    expect(rx.received.filter((x) => x.path === path)).toHaveLength(1);
  });
});
