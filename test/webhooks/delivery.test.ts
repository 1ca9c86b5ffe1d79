// Webhook deliveries end to end: a real receiver on loopback, the real dispatcher, the client verifier.
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type components, type LogisticsClient, type WebhookEvent } from "../../client/index.ts";
import { verifyWebhook, verifyWebhookEvents, WebhookVerificationError } from "../../client/webhooks.ts";
import { recordEvent } from "../../server/webhooks/outbox.ts";
import { arrive, createShipment, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startTestServer, useWebhookServer, type TestServer } from "../helpers/server.ts";
import { webhookBodyProblems } from "../helpers/webhook-schemas.ts";

type S = components["schemas"];

let srv: TestServer;
let rx: Receiver;
let m: LogisticsClient;
let w: LogisticsClient;
let merchantId: string;
let seq = 0;

const SCHEDULE = [0.05, 0.1];

useWebhookServer(
  async (s, r) => {
    [srv, rx] = [s, r];
    w = await srv.operator();
  },
  // No test here waits for a timeout: a generous one, so that a loaded machine's slow answer is not taken for one.
  { retrySchedule: SCHEDULE, timeoutMs: 10_000 },
);
beforeEach(async () => {
  // A merchant and a receiver path per test: nothing of one test reaches another.
  merchantId = `hooks-${++seq}.example.com`;
  m = await srv.merchant(merchantId);
  rx.respond = () => 200;
});

async function endpoint(body: Partial<S["WebhookEndpointCreate"]> = {}) {
  const path = `/hook-${seq}-${Math.random().toString(36).slice(2, 8)}`;
  const r = await m.POST("/webhook_endpoints/_create", {
    body: { url: rx.url(path), event_types: ["inbound_shipment.items_arrived"], ...body },
  });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  return { ...r.data!, path };
}

async function deliveries(webhookId: string) {
  const r = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", { params: { path: { webhook_id: webhookId } } });
  expect(r.response.status).toBe(200);
  return r.data!.items;
}

/** Every delivered body conforms to its entry in the spec's `webhooks` section. */
function expectConforms(body: string, name: string) {
  expect(webhookBodyProblems(name, JSON.parse(body)), body).toEqual([]);
}

describe("delivery", () => {
  it("an arrival becomes a signed delivery with the documented payload, verified and typed by the client", async () => {
    const ep = await endpoint({ event_types: ["inbound_shipment.items_arrived", "inbound_shipment.status_changed"] });
    const other = await endpoint({ event_types: ["inbound_shipment.items_arrived"] });
    const id = await createShipment(m);
    const res = await arrive(w, id, [{ merchants_id: "SKU-1001", change: 6 }], "2016-01-20T09:12:01+00:00");
    const committed = performance.now(); // the answer is sent after the commit
    expect(res.response.status).toBe(200);

    const got = await rx.waitFor(2, { path: ep.path });
    // Woken by the commit (no poll runs): a fraction of a second, with room for a loaded test machine.
    expect(got[got.length - 1]!.at - committed).toBeLessThan(1500);
    const events = got.map((g) => {
      expect(g.headers["content-type"]).toBe("application/json");
      expect(g.headers.authorization).toBeUndefined();
      const event = verifyWebhook(ep.secret, g.headers, g.body) as WebhookEvent;
      expectConforms(g.body, event.event_type);
      expect(g.headers["webhook-id"]).toBe(event.event_id);
      return event;
    });
    const arrived = events.find((e) => e.event_type === "inbound_shipment.items_arrived");
    const changed = events.find((e) => e.event_type === "inbound_shipment.status_changed");
    expect(arrived).toMatchObject({
      webhook_id: ep.id,
      retry_count: 0,
      payload: {
        shipment_id: id,
        merchants_ref: "PO-2016-0042",
        status: "processing",
        arrivals: [{ merchants_id: "SKU-1001", ts: "2016-01-20T09:12:01+00:00", change: 6 }],
        products: [{ merchants_id: "SKU-1001", qty: 10, arrivedQty: 6 }],
      },
    });
    if (arrived?.event_type === "inbound_shipment.items_arrived") {
      // Typed by the generated contract: no cast needed to read the totals.
      expect(arrived.payload.products[0]!.arrivedQty).toBe(6);
    }
    expect(changed).toMatchObject({ payload: { shipment_id: id, from_status: "initial", status: "processing" } });

    // The same event to another endpoint: the same event_id, its own webhook_id and secret.
    const [toOther] = await rx.waitFor(1, { path: other.path });
    const otherEvent = verifyWebhook(other.secret, toOther!.headers, toOther!.body) as WebhookEvent;
    expect(otherEvent).toMatchObject({ event_id: arrived!.event_id, webhook_id: other.id });
    expect(() => verifyWebhook(ep.secret, toOther!.headers, toOther!.body)).toThrow(WebhookVerificationError);

    await expect.poll(async () => (await deliveries(ep.id)).map((d) => d.status)).toEqual(["succeeded", "succeeded"]);
    const [d] = await deliveries(other.id);
    expect(d).toMatchObject({
      event_id: arrived!.event_id,
      event_type: "inbound_shipment.items_arrived",
      webhook_id: other.id,
      attempts: 1,
      last_response_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(d!.last_duration_ms).toEqual(expect.any(Number));
  });

  it("a 500 is retried with retry_count 1 and the same event_id", async () => {
    const ep = await endpoint();
    let calls = 0;
    rx.respond = (r) => (r.path === ep.path && ++calls === 1 ? { status: 500, body: "Internal Server Error" } : 200);
    await arrive(w, await createShipment(m), [{ merchants_id: "SKU-1001", change: 1 }]);
    const [first, second] = await rx.waitFor(2, { path: ep.path });
    const a = verifyWebhook(ep.secret, first!.headers, first!.body) as WebhookEvent;
    const b = verifyWebhook(ep.secret, second!.headers, second!.body) as WebhookEvent;
    expect([a.retry_count, b.retry_count]).toEqual([0, 1]);
    expect(b.event_id).toBe(a.event_id);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expectConforms(second!.body, b.event_type);
    await expect
      .poll(async () => (await deliveries(ep.id))[0])
      .toMatchObject({ status: "succeeded", attempts: 2, last_response_status: 200, last_error: null });
  });

  it("a receiver that keeps failing is retried on the backoff schedule, then failed, visible and re-deliverable", async () => {
    const ep = await endpoint();
    rx.respond = (r) => (r.path === ep.path ? { status: 503, body: "down" } : 200);
    await arrive(w, await createShipment(m), [{ merchants_id: "SKU-1001", change: 2 }]);
    const tries = await rx.waitFor(SCHEDULE.length + 1, { path: ep.path });
    // Waits between attempts follow the schedule within its jitter (and the dispatcher's wake-up slack).
    for (const [i, wait] of SCHEDULE.entries()) {
      const gap = tries[i + 1]!.at - tries[i]!.at;
      expect(gap, `wait ${i + 1}`).toBeGreaterThanOrEqual(wait * 1000 * 0.8 - 5);
      expect(gap, `wait ${i + 1}`).toBeLessThan(wait * 1000 * 1.2 + 1500); // generous: a loaded test machine
    }
    expect(tries.map((t) => (JSON.parse(t.body) as WebhookEvent).retry_count)).toEqual([0, 1, 2]);
    await expect
      .poll(async () => (await deliveries(ep.id))[0])
      .toMatchObject({
        status: "failed",
        attempts: 3,
        last_response_status: 503,
        last_error: "HTTP 503 from endpoint",
        next_attempt_at: null,
      });
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.received.filter((r) => r.path === ep.path)).toHaveLength(3); // no attempt after failed

    // Fixed: re-deliver. Same event, a new delivery, retry_count goes on counting.
    rx.respond = () => 200;
    const [failed] = await deliveries(ep.id);
    const again = await m.POST("/webhook_deliveries/{delivery_id}/_redeliver", {
      params: { path: { delivery_id: failed!.id } },
    });
    expect(again.response.status).toBe(202);
    expect(again.data).toMatchObject({ success: true, event_id: failed!.event_id });
    expect(again.data!.delivery_id).not.toBe(failed!.id);
    const all = await rx.waitFor(4, { path: ep.path });
    const redelivered = verifyWebhook(ep.secret, all[3]!.headers, all[3]!.body) as WebhookEvent;
    expect(redelivered).toMatchObject({ event_id: failed!.event_id, retry_count: 3 });
    await expect
      .poll(async () => (await deliveries(ep.id)).map((d) => [d.id, d.status]))
      .toEqual([
        [again.data!.delivery_id, "succeeded"],
        [failed!.id, "failed"],
      ]);
  });

  it("a receiver that is down (connection refused) gets the same schedule and a visible error", async () => {
    const down = await startReceiver();
    const url = down.url("/down");
    await down.close();
    const r = await m.POST("/webhook_endpoints/_create", { body: { url, event_types: ["webhook.test"] } });
    const test = await m.POST("/webhook_endpoints/{webhook_id}/_test", {
      params: { path: { webhook_id: r.data!.id } },
    });
    expect(test.response.status).toBe(202);
    await expect
      .poll(async () => (await deliveries(r.data!.id))[0], { timeout: 5000 })
      .toMatchObject({
        id: test.data!.delivery_id,
        status: "failed",
        attempts: 3,
        last_response_status: null,
        last_error: "connection refused",
      });
  });

  it("a rolled back change leaves no event and sends nothing", async () => {
    const ep = await endpoint();
    const id = await createShipment(m);
    // A correction below zero is refused: the arrival's transaction rolls back with its outbox rows.
    const refused = await expectUnchanged(srv, () => arrive(w, id, [{ merchants_id: "SKU-1001", change: -1 }]));
    expectError(refused, 409, "conflict");
    // The outbox itself: an event recorded in a transaction that fails is gone with it.
    await expect(
      srv.handle.db.transaction().execute(async (trx) => {
        await recordEvent(trx, "inbound_shipment.items_arrived", merchantId, new Date(), {
          shipment_id: id,
          merchants_ref: "X",
          status: "processing",
          arrivals: [{ merchants_id: "SKU-1001", product_id: id, ts: "2016-01-20T09:12:01+00:00", change: 1 }],
          products: [{ merchants_id: "SKU-1001", product_id: id, qty: 1, arrivedQty: 1 }],
        });
        throw new Error("the change fails after its event was recorded");
      }),
    ).rejects.toThrow("the change fails");
    const rows = await srv.handle.db
      .selectFrom("webhook_events")
      .select("id")
      .where("merchant_id", "=", merchantId)
      .execute();
    expect(rows).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.received.filter((r) => r.path === ep.path)).toEqual([]);
    expect(await deliveries(ep.id)).toEqual([]);
  });

  it("a disabled endpoint gets no new events; an unsubscribed type is not sent", async () => {
    const ep = await endpoint();
    const off = await endpoint();
    await m.POST("/webhook_endpoints/{webhook_id}", {
      params: { path: { webhook_id: off.id } },
      body: { enabled: false },
    });
    const id = await createShipment(m);
    await w.POST("/inbound_shipments/{shipment_id}/_status", {
      params: { path: { shipment_id: id } },
      body: { status: "arrived_at_warehouse" },
    });
    await arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }]);
    const got = await rx.waitFor(1, { path: ep.path });
    await new Promise((r) => setTimeout(r, 200));
    // Only items_arrived, though status_changed and arrived_at_warehouse happened too.
    expect(
      rx.received.filter((r) => r.path === ep.path).map((r) => (JSON.parse(r.body) as WebhookEvent).event_type),
    ).toEqual(["inbound_shipment.items_arrived"]);
    expect(got).toHaveLength(1);
    expect(rx.received.filter((r) => r.path === off.path)).toEqual([]);
  });
});

describe("secret rotation", () => {
  it("signs with the old and the new secret for the overlap; a second rotation drops the oldest", async () => {
    const ep = await endpoint({ event_types: ["webhook.test"] });
    const rotate = async () => {
      const r = await m.POST("/webhook_endpoints/{webhook_id}/_rotate_secret", {
        params: { path: { webhook_id: ep.id } },
      });
      expect(r.response.status).toBe(200);
      expect(r.data!.secret).not.toBe(ep.secret);
      return r.data!.secret;
    };
    const sendTest = async (n: number) => {
      expect(
        (await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } })).response
          .status,
      ).toBe(202);
      return (await rx.waitFor(n, { path: ep.path }))[n - 1]!;
    };
    const first = ep.secret;
    const second = await rotate();
    const d1 = await sendTest(1);
    expect(String(d1.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyWebhook(first, d1.headers, d1.body)).toMatchObject({ event_type: "webhook.test" });
    expect(verifyWebhook(second, d1.headers, d1.body)).toMatchObject({ event_type: "webhook.test" });
    expectConforms(d1.body, "webhook.test");

    const third = await rotate();
    const d2 = await sendTest(2);
    expect(String(d2.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyWebhook([third], d2.headers, d2.body)).toBeTruthy();
    expect(verifyWebhook(second, d2.headers, d2.body)).toBeTruthy();
    expect(() => verifyWebhook(first, d2.headers, d2.body)).toThrow(WebhookVerificationError);

    // After the overlap only the current secret signs.
    await sql`update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = ${ep.id}`.execute(
      srv.handle.db,
    );
    const d3 = await sendTest(3);
    expect(String(d3.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyWebhook(third, d3.headers, d3.body)).toBeTruthy();
    expect(() => verifyWebhook(second, d3.headers, d3.body)).toThrow(WebhookVerificationError);
  });
});

describe("Basic credentials", () => {
  it("every delivery carries them; they are never returned; null removes them", async () => {
    const ep = await endpoint({
      event_types: ["webhook.test"],
      basic_auth: { username: "erp-hooks", password: "s3cret:with:colons" },
    });
    expect(ep).toMatchObject({ has_basic_auth: true });
    expect(JSON.stringify(ep)).not.toContain("s3cret");
    const got = await m.GET("/webhook_endpoints/{webhook_id}", { params: { path: { webhook_id: ep.id } } });
    expect(got.data).toMatchObject({ has_basic_auth: true });
    const list = await m.GET("/webhook_endpoints");
    for (const text of [JSON.stringify(got.data), JSON.stringify(list.data)]) {
      expect(text).not.toContain("s3cret");
      expect(text).not.toContain("erp-hooks");
      expect(text).not.toContain(ep.secret);
    }

    await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } });
    const [d] = await rx.waitFor(1, { path: ep.path });
    expect(d!.headers.authorization).toBe(`Basic ${Buffer.from("erp-hooks:s3cret:with:colons").toString("base64")}`);
    expect(verifyWebhook(ep.secret, d!.headers, d!.body)).toBeTruthy(); // signed as well

    const cleared = await m.POST("/webhook_endpoints/{webhook_id}", {
      params: { path: { webhook_id: ep.id } },
      body: { basic_auth: null },
    });
    expect(cleared.data).toMatchObject({ has_basic_auth: false });
    await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } });
    const [, d2] = await rx.waitFor(2, { path: ep.path });
    expect(d2!.headers.authorization).toBeUndefined();
  });
});

describe("batching", () => {
  it("sends queued events as one signed JSON array; a failed batch is retried whole under the same webhook-id", async () => {
    const ep = await endpoint({
      batching: true,
      event_types: ["inbound_shipment.items_arrived", "inbound_shipment.status_changed"],
    });
    expect(ep.batching).toBe(true);
    // The first request is held until the next events are recorded: they gather into one batch meanwhile.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let calls = 0;
    rx.respond = async (r) => {
      if (r.path !== ep.path) return 200;
      calls++;
      if (calls === 1) return held.then(() => 200);
      if (calls === 2) return { status: 500 };
      return 200;
    };
    await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } });
    await rx.waitFor(1, { path: ep.path });
    const id = await createShipment(m);
    for (let i = 0; i < 3; i++) await arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }]);
    release();

    const [first, second, third] = await rx.waitFor(3, { path: ep.path });
    for (const r of [first!, second!, third!]) expectConforms(r.body, "batch");
    expect(verifyWebhookEvents(ep.secret, first!.headers, first!.body).map((e) => e.event_type)).toEqual([
      "webhook.test",
    ]);
    const batch = verifyWebhookEvents(ep.secret, second!.headers, second!.body);
    // 3 arrivals and the move to processing, oldest first.
    expect(batch.map((e) => e.event_type).sort()).toEqual([
      "inbound_shipment.items_arrived",
      "inbound_shipment.items_arrived",
      "inbound_shipment.items_arrived",
      "inbound_shipment.status_changed",
    ]);
    expect(new Set(batch.map((e) => e.event_id)).size).toBe(4);
    expect(batch.every((e) => e.retry_count === 0 && e.webhook_id === ep.id)).toBe(true);
    // webhook-id is the batch's id, not an event's; the retry is the same batch.
    expect(batch.map((e) => e.event_id)).not.toContain(second!.headers["webhook-id"]);
    expect(third!.headers["webhook-id"]).toBe(second!.headers["webhook-id"]);
    const retried = verifyWebhookEvents(ep.secret, third!.headers, third!.body);
    expect(retried.map((e) => e.event_id)).toEqual(batch.map((e) => e.event_id));
    expect(retried.every((e) => e.retry_count === 1)).toBe(true);
    await expect.poll(async () => (await deliveries(ep.id)).map((d) => d.status)).toEqual(Array(5).fill("succeeded"));
  });

  it("sends at most 100 events per request", async () => {
    const ep = await endpoint({ batching: true, event_types: ["webhook.test"] });
    let calls = 0;
    rx.respond = (r) => (r.path === ep.path && ++calls === 1 ? { status: 200, delayMs: 500 } : 200);
    await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } });
    await rx.waitFor(1, { path: ep.path });
    // 130 events queued in one transaction while the first request is held.
    await srv.handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 130; i++)
        await recordEvent(trx, "webhook.test", merchantId, new Date(), { message: `event ${i}` });
    });
    // The 130 events, by the requests that carried them. (On a starved machine the held first request can time
    // out and its test event come again later, alone: that is a retry, not a batch of the 130.)
    const queued = (body: string) =>
      (JSON.parse(body) as { payload: { message?: string } }[]).filter((e) => e.payload.message?.startsWith("event "));
    const batches = () =>
      rx.received
        .filter((r) => r.path === ep.path)
        .map((r) => queued(r.body))
        .filter((b) => b.length);
    await expect
      .poll(
        () =>
          new Set(
            batches()
              .flat()
              .map((e) => e.payload.message),
          ).size,
        { timeout: 10_000 },
      )
      .toBe(130);
    await new Promise((r) => setTimeout(r, 200));
    const sizes = batches().map((b) => b.length);
    expect(sizes.slice(0, 2)).toEqual([100, 30]);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
  });
});

describe("limits and shutdown", () => {
  let limited: TestServer;
  let lrx: Receiver;
  beforeAll(async () => {
    lrx = await startReceiver();
    limited = await startTestServer({
      webhooks: { retrySchedule: SCHEDULE, timeoutMs: 10_000, allowPrivateNetworks: true },
      dispatcher: { concurrency: 8, perEndpoint: 2, pollMs: 600_000 },
    });
  });
  afterAll(async () => {
    await limited?.close();
    await lrx?.close();
  });

  it("never sends more than perEndpoint requests at once to one endpoint; claimed rows beyond what may wait are given back, not counted as attempts", async () => {
    const c = await limited.merchant("limits.example.com");
    const ep = await c.POST("/webhook_endpoints/_create", {
      body: { url: lrx.url("/slow"), event_types: ["webhook.test"] },
    });
    let open = 0;
    let most = 0;
    lrx.respond = () => {
      most = Math.max(most, ++open);
      setTimeout(() => open--, 100);
      return { status: 200, delayMs: 100 };
    };
    await limited.handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 10; i++)
        await recordEvent(trx, "webhook.test", "limits.example.com", new Date(), { message: `n${i}` });
    });
    await lrx.waitFor(10, { path: "/slow" });
    expect(most).toBe(2);
    const list = await c.GET("/webhook_endpoints/{webhook_id}/deliveries", {
      params: { path: { webhook_id: ep.data!.id } },
    });
    await expect
      .poll(async () =>
        (
          await c.GET("/webhook_endpoints/{webhook_id}/deliveries", { params: { path: { webhook_id: ep.data!.id } } })
        ).data!.items.map((d) => [d.status, d.attempts]),
      )
      .toEqual(Array(10).fill(["succeeded", 1]));
    expect(list.data!.items).toHaveLength(10);
    expect(new Set(lrx.received.map((r) => r.headers["webhook-id"])).size).toBe(10);
  });

  it("stopping lets the request in flight finish and records its outcome", async () => {
    const c = await limited.merchant("shutdown.example.com");
    const ep = await c.POST("/webhook_endpoints/_create", {
      body: { url: lrx.url("/held"), event_types: ["webhook.test"] },
    });
    lrx.respond = () => ({ status: 200, delayMs: 400 });
    const t = await c.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.data!.id } } });
    await lrx.waitFor(1, { path: "/held" });
    await limited.dispatcher!.stop();
    const row = await limited.handle.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("id", "=", t.data!.delivery_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "succeeded", attempts: 1, last_response_status: 200, due_at: null });
    expect(row.last_duration_ms).toBeGreaterThanOrEqual(390);
  });
});
