// Contract test: every webhook endpoint and delivery operation of spec/openapi.yaml, successes and main
// failures, driven through Prism in proxy mode in front of the real server (strict and lenient proxies,
// as in inbound.contract.test.ts). No dispatcher runs: queued deliveries stay pending.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { MAX_ENDPOINTS } from "../../server/webhooks/endpoints.ts";
import { contractHarness } from "./harness.ts";

type S = components["schemas"];

/** The statuses each webhook operation must have been seen answering through Prism. */
const REQUIRED: Record<string, number[]> = {
  createWebhookEndpoint: [201, 400, 401, 403, 409, 422],
  listWebhookEndpoints: [200, 400],
  getWebhookEndpoint: [200, 404],
  updateWebhookEndpoint: [200, 400, 404],
  deleteWebhookEndpoint: [200, 404],
  rotateWebhookSecret: [200, 404],
  sendTestWebhook: [202, 404, 409],
  listWebhookDeliveries: [200, 400, 404],
  getWebhookDelivery: [200, 400, 404],
  redeliverWebhook: [202, 404, 409],
};

const h = contractHarness(["/webhook_"]);
const { conforms, fails, refusedByPrism, account } = h;
beforeAll(() => h.start());
afterAll(() => h.stop());

const URL_ = "https://erp.shop.example/hooks/logistics";
const at = (webhook_id: string) => ({ params: { path: { webhook_id } } });
const delivery = (delivery_id: string) => ({ params: { path: { delivery_id } } });
const UNKNOWN = "0123456789abcdef01234567";

async function create(c: LogisticsClient, body: Partial<S["WebhookEndpointCreate"]> = {}) {
  const r = conforms(
    await c.POST("/webhook_endpoints/_create", {
      body: { url: URL_, event_types: ["inbound_shipment.items_arrived"], ...body },
    }),
    201,
  );
  return r.data!;
}

describe("webhook operations conform to spec/openapi.yaml through Prism", () => {
  it("createWebhookEndpoint: 201 (with Basic credentials and batching), idempotent retry, 422, 400 destination and unknown property, 401, 403, 409 beyond the limit", async () => {
    const m = await account("merchant");
    const w = await account("operator");
    const ep = await create(m.strict, {
      description: "ERP",
      batching: true,
      basic_auth: { username: "erp", password: "pw" },
    });
    expect(ep).toMatchObject({ batching: true, has_basic_auth: true, secret: expect.stringMatching(/^whsec_/) });

    const idem = { params: { header: { "Idempotency-Key": `contract-hooks-${Date.now()}` } } };
    const body = { url: URL_, event_types: ["webhook.test" as const] };
    const first = conforms(await m.strict.POST("/webhook_endpoints/_create", { ...idem, body }), 201);
    const retry = conforms(await m.strict.POST("/webhook_endpoints/_create", { ...idem, body }), 201);
    expect(retry.data).toEqual(first.data);
    fails(
      await m.strict.POST("/webhook_endpoints/_create", { ...idem, body: { ...body, description: "other" } }),
      422,
      "idempotency_key_reused",
    );

    const e = fails(
      await m.strict.POST("/webhook_endpoints/_create", {
        body: { url: "http://10.0.0.7/hook", event_types: ["webhook.test"] },
      }),
      400,
      "validation_failed",
    );
    expect(e.details).toContainEqual(expect.objectContaining({ path: "/body/url", code: "destination_not_allowed" }));

    const typo = { ...body, events: ["webhook.test"] } as S["WebhookEndpointCreate"];
    refusedByPrism(await m.strict.POST("/webhook_endpoints/_create", { body: typo }), 422, "events");
    fails(
      await m.lenient.POST("/webhook_endpoints/_create", { body: typo }),
      { status: 400, requestViolations: ["additionalProperties"] },
      "validation_failed",
    );

    fails(
      await h.client("strict", m.username, "wrong").POST("/webhook_endpoints/_create", { body }),
      401,
      "unauthorized",
    );
    fails(await w.strict.POST("/webhook_endpoints/_create", { body }), 403, "access_denied");

    const soFar = conforms(await m.strict.GET("/webhook_endpoints"), 200).data!.items.length;
    for (let i = soFar; i < MAX_ENDPOINTS; i++) await create(m.strict);
    fails(await m.strict.POST("/webhook_endpoints/_create", { body }), 409, "conflict");
    const list = conforms(await m.strict.GET("/webhook_endpoints", { params: { query: { limit: 100 } } }), 200);
    expect(list.data!.items).toHaveLength(MAX_ENDPOINTS);
  });

  it("listWebhookEndpoints and getWebhookEndpoint: 200 with paging; 400 bad limit; 404 another merchant's", async () => {
    const m = await account("merchant");
    const other = await account("merchant");
    const a = await create(m.strict);
    const b = await create(m.strict, { enabled: false });
    const page1 = conforms(await m.strict.GET("/webhook_endpoints", { params: { query: { limit: 1 } } }), 200);
    const page2 = conforms(
      await m.strict.GET("/webhook_endpoints", { params: { query: { limit: 1, cursor: page1.data!.next_cursor! } } }),
      200,
    );
    expect([...page1.data!.items, ...page2.data!.items].map((e) => e.id)).toEqual([a.id, b.id]);
    refusedByPrism(await m.strict.GET("/webhook_endpoints", { params: { query: { limit: 0 } } }), 422, "limit");
    fails(
      await m.lenient.GET("/webhook_endpoints", { params: { query: { limit: 0 } } }),
      { status: 400, requestViolations: ["minimum"] },
      "validation_failed",
    );

    const got = conforms(await m.strict.GET("/webhook_endpoints/{webhook_id}", at(b.id)), 200);
    expect(got.data).toMatchObject({ id: b.id, enabled: false });
    fails(await other.strict.GET("/webhook_endpoints/{webhook_id}", at(a.id)), 404, "not_found");
  });

  it("updateWebhookEndpoint: 200 (Basic credentials set and removed); 400 destination; 404", async () => {
    const m = await account("merchant");
    const ep = await create(m.strict);
    const set = conforms(
      await m.strict.POST("/webhook_endpoints/{webhook_id}", {
        ...at(ep.id),
        body: { basic_auth: { username: "erp", password: "pw" }, batching: true, enabled: false },
      }),
      200,
    );
    expect(set.data).toMatchObject({ has_basic_auth: true, batching: true, enabled: false });
    const cleared = conforms(
      await m.strict.POST("/webhook_endpoints/{webhook_id}", {
        ...at(ep.id),
        body: { basic_auth: null, description: "no auth" },
      }),
      200,
    );
    expect(cleared.data).toMatchObject({ has_basic_auth: false, description: "no auth" });
    const bad = fails(
      await m.strict.POST("/webhook_endpoints/{webhook_id}", { ...at(ep.id), body: { url: "http://localhost/hook" } }),
      400,
      "validation_failed",
    );
    expect(bad.details[0]).toMatchObject({ path: "/body/url", code: "destination_not_allowed" });
    fails(
      await m.strict.POST("/webhook_endpoints/{webhook_id}", { ...at(UNKNOWN), body: { enabled: true } }),
      404,
      "not_found",
    );
  });

  it("rotateWebhookSecret and deleteWebhookEndpoint: 200; 404", async () => {
    const m = await account("merchant");
    const ep = await create(m.strict);
    const rotated = conforms(await m.strict.POST("/webhook_endpoints/{webhook_id}/_rotate_secret", at(ep.id)), 200);
    expect(rotated.data!.secret).not.toBe(ep.secret);
    fails(await m.strict.POST("/webhook_endpoints/{webhook_id}/_rotate_secret", at(UNKNOWN)), 404, "not_found");
    const del = conforms(await m.strict.DELETE("/webhook_endpoints/{webhook_id}", at(ep.id)), 200);
    expect(del.data).toEqual({ success: true, id: ep.id });
    fails(await m.strict.DELETE("/webhook_endpoints/{webhook_id}", at(ep.id)), 404, "not_found");
  });

  it("sendTestWebhook, listWebhookDeliveries, redeliverWebhook: 202/200 (pending: attempted now); 409 disabled; 404; 400 bad status filter", async () => {
    const m = await account("merchant");
    const ep = await create(m.strict);
    const test = conforms(await m.strict.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id)), 202);
    // Still pending: re-delivering attempts that one now and names it.
    const now = conforms(
      await m.strict.POST("/webhook_deliveries/{delivery_id}/_redeliver", delivery(test.data!.delivery_id)),
      202,
    );
    expect(now.data).toEqual({ success: true, event_id: test.data!.event_id, delivery_id: test.data!.delivery_id });

    const list = conforms(await m.strict.GET("/webhook_endpoints/{webhook_id}/deliveries", at(ep.id)), 200);
    expect(list.data!.items).toEqual([
      expect.objectContaining({ id: test.data!.delivery_id, status: "pending", event_type: "webhook.test" }),
    ]);
    // As the dispatcher leaves it after a day of failures.
    await sql`update webhook_deliveries set status = 'failed', due_at = null, attempts = 8, last_attempt_at = now(),
      last_response_status = 503, last_error = 'HTTP 503 from endpoint', last_duration_ms = 12 where id = ${test.data!.delivery_id}`.execute(
      h.server().handle.db,
    );
    const failed = conforms(
      await m.strict.GET("/webhook_endpoints/{webhook_id}/deliveries", {
        params: { path: { webhook_id: ep.id }, query: { status: "failed", limit: 10 } },
      }),
      200,
    );
    expect(failed.data!.items[0]).toMatchObject({
      status: "failed",
      attempts: 8,
      last_response_status: 503,
      last_duration_ms: 12,
      next_attempt_at: null,
    });

    const again = conforms(
      await m.strict.POST("/webhook_deliveries/{delivery_id}/_redeliver", delivery(test.data!.delivery_id)),
      202,
    );
    expect(again.data).toMatchObject({ success: true, event_id: test.data!.event_id });
    // The receiver answered 429 with Retry-After 30 s: the pending delivery waits for it (409 with Retry-After).
    await sql`update webhook_deliveries set attempts = 1, last_response_status = 429, due_at = now() + interval '30 seconds',
      receiver_not_before = now() + interval '30 seconds' where id = ${again.data!.delivery_id}`.execute(
      h.server().handle.db,
    );
    const waiting = await m.strict.POST(
      "/webhook_deliveries/{delivery_id}/_redeliver",
      delivery(again.data!.delivery_id),
    );
    expect(fails(waiting, 409, "conflict").message).toMatch(/^The receiver asked for time with Retry-After/);
    expect(Number(waiting.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(29);
    fails(await m.strict.POST("/webhook_deliveries/{delivery_id}/_redeliver", delivery(UNKNOWN)), 404, "not_found");

    refusedByPrism(
      await m.strict.GET("/webhook_endpoints/{webhook_id}/deliveries", {
        params: { path: { webhook_id: ep.id }, query: { status: "sent" as "failed" } },
      }),
      422,
      "status",
    );
    fails(
      await m.lenient.GET("/webhook_endpoints/{webhook_id}/deliveries", {
        params: { path: { webhook_id: ep.id }, query: { status: "sent" as "failed" } },
      }),
      { status: 400, requestViolations: ["enum"] },
      "validation_failed",
    );
    fails(await m.strict.GET("/webhook_endpoints/{webhook_id}/deliveries", at(UNKNOWN)), 404, "not_found");

    conforms(await m.strict.POST("/webhook_endpoints/{webhook_id}", { ...at(ep.id), body: { enabled: false } }), 200);
    fails(await m.strict.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id)), 409, "conflict");
    fails(
      await m.strict.POST("/webhook_deliveries/{delivery_id}/_redeliver", delivery(test.data!.delivery_id)),
      409,
      "conflict",
    );
    fails(await m.strict.POST("/webhook_endpoints/{webhook_id}/_test", at(UNKNOWN)), 404, "not_found");
  });

  it("getWebhookDelivery: 200 with the shipment and the body it sends; 404 another merchant's; 400 a malformed id", async () => {
    const m = await account("merchant");
    const other = await account("merchant");
    const ep = await create(m.strict, { event_types: ["webhook.test"] });
    const test = conforms(await m.strict.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id)), 202);
    const got = conforms(
      await m.strict.GET("/webhook_deliveries/{delivery_id}", delivery(test.data!.delivery_id)),
      200,
    );
    expect(got.data).toMatchObject({
      id: test.data!.delivery_id,
      shipment: null,
      status: "pending",
      payload: { event_id: test.data!.event_id, event_type: "webhook.test", webhook_id: ep.id, retry_count: 0 },
    });
    fails(
      await other.strict.GET("/webhook_deliveries/{delivery_id}", delivery(test.data!.delivery_id)),
      404,
      "not_found",
    );
    refusedByPrism(await m.strict.GET("/webhook_deliveries/{delivery_id}", delivery("not-an-id")), 422, "delivery_id");
    fails(
      await m.lenient.GET("/webhook_deliveries/{delivery_id}", delivery("not-an-id")),
      { status: 400, requestViolations: ["pattern"] },
      "validation_failed",
    );
  });

  it("exercised every webhook operation of the spec, with every required status, and checked every response", () => {
    h.expectComplete(REQUIRED);
  });
});
