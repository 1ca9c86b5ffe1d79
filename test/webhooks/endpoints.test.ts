// The webhook endpoints API: every operation's success, its bad input (exact status, code and field, and
// nothing stored changed), tenancy, limits, and the destinations refused at registration and at connect time.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { pruneOlderThan } from "../../server/webhooks/db.ts";
import { MAX_ENDPOINTS } from "../../server/webhooks/endpoints.ts";
import { basicAuth, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { startReceiver } from "../helpers/receiver.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";

type S = components["schemas"];

let srv: TestServer;
let m: LogisticsClient;
let other: LogisticsClient;
let seq = 0;

// No dispatcher here: queued deliveries stay pending, and nothing is sent to these made-up hosts.
useTestServer(async (s) => {
  srv = s;
  m = await srv.merchant("ep.example.com");
  other = await srv.merchant("ep-other.example.com");
});

/** A merchant without endpoints, for the tests that count them. */
const fresh = () => srv.merchant(`ep-${++seq}.example.com`);

const URL_ = "https://erp.shop.example/hooks/logistics";
const unchanged = <R>(request: () => Promise<R>) => expectUnchanged(srv, request);
const at = (webhook_id: string) => ({ params: { path: { webhook_id } } });

async function create(c: LogisticsClient, body: Partial<S["WebhookEndpointCreate"]> = {}) {
  const r = await c.POST("/webhook_endpoints/_create", {
    body: { url: URL_, event_types: ["inbound_shipment.items_arrived"], ...body },
  });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  return r.data!;
}

describe("create, read, list", () => {
  it("creates with defaults, shows the secret once, and never again", async () => {
    const m = await fresh();
    const ep = await create(m, { description: "ERP stock updates" });
    expect(ep).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      url: URL_,
      event_types: ["inbound_shipment.items_arrived"],
      description: "ERP stock updates",
      enabled: true,
      batching: false,
      has_basic_auth: false,
      disabled_reason: null,
      created_at: expect.stringMatching(/\+00:00$/),
      updated_at: ep.created_at,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const got = await m.GET("/webhook_endpoints/{webhook_id}", at(ep.id));
    expect(got.data).toEqual({ ...ep, secret: undefined });
    expect(JSON.stringify(got.data)).not.toContain(ep.secret);
    const list = await m.GET("/webhook_endpoints");
    expect(list.data).toEqual({ items: [got.data], next_cursor: null });
  });

  it("lists oldest first, page by page", async () => {
    const m = await fresh();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await create(m, { description: `n${i}` })).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await m.GET("/webhook_endpoints", { params: { query: { limit: 2, ...(cursor && { cursor }) } } });
      expect(page.response.status).toBe(200);
      expect(page.data!.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.data!.items.map((e) => e.id));
      cursor = page.data!.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
    expectError(
      await m.GET("/webhook_endpoints", { params: { query: { cursor: "bm90LWEtY3Vyc29y" } } }),
      400,
      "validation_failed",
      ["/query/cursor"],
    );
  });

  it("replays an idempotent create, secret included, and refuses the key with another body", async () => {
    const m = await fresh();
    const idem = { params: { header: { "Idempotency-Key": `ep-${seq}` } } };
    const body = { url: URL_, event_types: ["webhook.test" as const] };
    const first = await m.POST("/webhook_endpoints/_create", { ...idem, body });
    const again = await m.POST("/webhook_endpoints/_create", { ...idem, body });
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(first.data);
    expectError(
      await unchanged(() => m.POST("/webhook_endpoints/_create", { ...idem, body: { ...body, description: "x" } })),
      422,
      "idempotency_key_reused",
    );
    expect((await m.GET("/webhook_endpoints")).data!.items).toHaveLength(1);
  });

  it(`allows ${MAX_ENDPOINTS} endpoints per merchant, then 409`, async () => {
    const m = await fresh();
    await Promise.all(Array.from({ length: MAX_ENDPOINTS }, () => create(m)));
    expectError(
      await unchanged(() =>
        m.POST("/webhook_endpoints/_create", { body: { url: URL_, event_types: ["webhook.test"] } }),
      ),
      409,
      "conflict",
    );
    await create(other); // another merchant has its own limit
  });
});

describe("bad input to create and update is refused and stores nothing", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["an unknown property", { url: URL_, event_types: ["webhook.test"], secret: "whsec_mine" }, "/body/secret"],
    ["no url", { event_types: ["webhook.test"] }, "/body/url"],
    ["an ftp URL", { url: "ftp://erp.shop.example/x", event_types: ["webhook.test"] }, "/body/url"],
    [
      "credentials in the URL",
      { url: "https://user:pw@erp.shop.example/x", event_types: ["webhook.test"] },
      "/body/url",
    ],
    ["no event types", { url: URL_, event_types: [] }, "/body/event_types"],
    ["an unknown event type", { url: URL_, event_types: ["inbound_shipment.exploded"] }, "/body/event_types/0"],
    ["a repeated event type", { url: URL_, event_types: ["webhook.test", "webhook.test"] }, "/body/event_types"],
    [
      "a Basic user name with a colon",
      { url: URL_, event_types: ["webhook.test"], basic_auth: { username: "a:b", password: "p" } },
      "/body/basic_auth/username",
    ],
    [
      "Basic credentials without a password",
      { url: URL_, event_types: ["webhook.test"], basic_auth: { username: "a" } },
      "/body/basic_auth/password",
    ],
    ["batching that is not a boolean", { url: URL_, event_types: ["webhook.test"], batching: "yes" }, "/body/batching"],
    [
      "a description over 500 characters",
      { url: URL_, event_types: ["webhook.test"], description: "x".repeat(501) },
      "/body/description",
    ],
  ];
  it.each([
    ["ftp://erp.shop.example/x", "unsupported_scheme"],
    ["https://user:pw@erp.shop.example/x", "credentials_in_url"],
    ["https://user@erp.shop.example/x", "credentials_in_url"],
    // Not a URI at all: the schema's format names it (one word per field).
    ["not a web address", "format"],
  ])(
    "a URL %s is refused with its own reason (%s), on create and update, beside the body's other problems",
    async (url, code) => {
      const created = await unchanged(() =>
        m.POST("/webhook_endpoints/_create", {
          body: { url, event_types: ["webhook.test"], colour: "red" } as unknown as S["WebhookEndpointCreate"],
        }),
      );
      const error = expectError(created, 400, "validation_failed", ["/body/url", "/body/colour"]);
      expect(error.details.find((d) => d.path === "/body/url")?.code).toBe(code);
      const ep = await create(m);
      const updated = await unchanged(() =>
        m.POST("/webhook_endpoints/{webhook_id}", { params: { path: { webhook_id: ep.id } }, body: { url } }),
      );
      expect(expectError(updated, 400, "validation_failed", ["/body/url"]).details).toEqual([
        expect.objectContaining({ path: "/body/url", code }),
      ]);
    },
  );

  it.each(cases)("create with %s: 400 naming the field", async (_name, body, path) => {
    const r = await unchanged(() => m.POST("/webhook_endpoints/_create", { body: body as S["WebhookEndpointCreate"] }));
    expectError(r, 400, "validation_failed", [path]);
  });

  const refused: [string, string][] = [
    ["http://127.0.0.1:8080/hook", "loopback"],
    ["http://[::1]/hook", "loopback"],
    ["http://10.1.2.3/hook", "private"],
    ["http://192.168.0.10/hook", "private"],
    ["http://169.254.169.254/latest/meta-data", "metadata"],
    ["http://[::ffff:127.0.0.1]/hook", "IPv4-mapped"],
    ["http://0.0.0.0/hook", "unspecified"],
    ["http://2130706433/hook", "loopback"],
    ["http://localhost:3000/hook", "loopback host"],
    ["https://erp.internal/hook", "local network name"],
    ["http://metadata.google.internal/computeMetadata/v1", "metadata"],
  ];
  it(`create and update to ${refused.length} private destinations: 400 destination_not_allowed, nothing stored`, async () => {
    const ep = await create(m);
    await unchanged(async () => {
      for (const [url, reason] of refused) {
        const e = expectError(
          await m.POST("/webhook_endpoints/_create", { body: { url, event_types: ["webhook.test"] } }),
          400,
          "validation_failed",
          ["/body/url"],
        );
        expect(e.details, url).toContainEqual(
          expect.objectContaining({
            path: "/body/url",
            code: "destination_not_allowed",
            message: expect.stringContaining(reason),
          }),
        );
        const u = expectError(
          await m.POST("/webhook_endpoints/{webhook_id}", { ...at(ep.id), body: { url } }),
          400,
          "validation_failed",
          ["/body/url"],
        );
        expect(u.details[0], url).toMatchObject({ code: "destination_not_allowed" });
      }
    });
  });

  it("update with nothing, an unknown property or a bad type: 400", async () => {
    const ep = await create(m);
    expectError(
      await unchanged(() => m.POST("/webhook_endpoints/{webhook_id}", { ...at(ep.id), body: {} })),
      400,
      "validation_failed",
    );
    expectError(
      await unchanged(() =>
        m.POST("/webhook_endpoints/{webhook_id}", {
          ...at(ep.id),
          body: { secret: "x" } as S["WebhookEndpointUpdate"],
        }),
      ),
      400,
      "validation_failed",
      ["/body/secret"],
    );
    expectError(
      await unchanged(() =>
        m.POST("/webhook_endpoints/{webhook_id}", {
          ...at(ep.id),
          body: { enabled: "no" } as unknown as S["WebhookEndpointUpdate"],
        }),
      ),
      400,
      "validation_failed",
      ["/body/enabled"],
    );
    expectError(
      await unchanged(() => m.GET("/webhook_endpoints/{webhook_id}", at("not-an-id"))),
      400,
      "validation_failed",
      ["/params/webhook_id"],
    );
  });

  it.each(["_rotate_secret", "_test"])("%s takes no body", async (action) => {
    const ep = await create(m);
    const r = await unchanged(() =>
      fetch(`${srv.baseUrl}/webhook_endpoints/${ep.id}/${action}`, {
        method: "POST",
        headers: {
          Authorization: basicAuth("M-ep.example.com", "secret-ep.example.com"),
          "Content-Type": "application/json",
        },
        body: '{"event_types":["webhook.test"]}',
      }),
    );
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({
      code: "validation_failed",
      details: [{ path: "/body", code: "not_allowed" }],
    });
  });
});

describe("update, rotate, delete", () => {
  it("changes only what is sent and keeps the secret", async () => {
    const ep = await create(m, { description: "a" });
    const secretOf = async () =>
      srv.keys.open(
        (
          await srv.handle.db
            .selectFrom("webhook_endpoints")
            .select("secret_sealed")
            .where("id", "=", ep.id)
            .executeTakeFirstOrThrow()
        ).secret_sealed,
        `webhook_endpoints:${ep.id}`,
      );
    const r = await m.POST("/webhook_endpoints/{webhook_id}", {
      ...at(ep.id),
      body: { event_types: ["inbound_shipment.processed", "webhook.test"], enabled: false, batching: true },
    });
    expect(r.data).toEqual({
      ...ep,
      secret: undefined,
      event_types: ["inbound_shipment.processed", "webhook.test"],
      enabled: false,
      batching: true,
      updated_at: expect.any(String),
    });
    expect(await secretOf()).toBe(ep.secret);
    const url = "https://erp2.shop.example/in?token=abc";
    expect(
      (await m.POST("/webhook_endpoints/{webhook_id}", { ...at(ep.id), body: { url, description: "" } })).data,
    ).toMatchObject({ url, description: "", enabled: false });
  });

  it("rotates: a new secret, shown once; the old one kept for the overlap", async () => {
    const ep = await create(m);
    const r = await m.POST("/webhook_endpoints/{webhook_id}/_rotate_secret", at(ep.id));
    expect(r.response.status).toBe(200);
    expect(r.data!.secret).toMatch(/^whsec_/);
    expect(r.data!.secret).not.toBe(ep.secret);
    const row = await srv.handle.db
      .selectFrom("webhook_endpoints")
      .select(["secret_sealed", "previous_secret_sealed", "previous_secret_expires_at"])
      .where("id", "=", ep.id)
      .executeTakeFirstOrThrow();
    const open = (sealed: string) => srv.keys.open(sealed, `webhook_endpoints:${ep.id}`);
    expect([open(row.secret_sealed), open(row.previous_secret_sealed!)]).toEqual([r.data!.secret, ep.secret]);
    const hours = (row.previous_secret_expires_at!.getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it("deletes the endpoint with its deliveries", async () => {
    const ep = await create(m);
    expect((await m.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id))).response.status).toBe(202);
    const del = await m.DELETE("/webhook_endpoints/{webhook_id}", at(ep.id));
    expect(del.data).toEqual({ success: true, id: ep.id });
    expectError(await m.GET("/webhook_endpoints/{webhook_id}", at(ep.id)), 404, "not_found");
    expectError(await m.DELETE("/webhook_endpoints/{webhook_id}", at(ep.id)), 404, "not_found");
    const left = await srv.handle.db
      .selectFrom("webhook_deliveries")
      .select("id")
      .where("endpoint_id", "=", ep.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe("test events, deliveries and re-delivery", () => {
  it("queues a test event; lists deliveries newest first with a status filter and paging", async () => {
    const ep = await create(m);
    const queued = [];
    for (let i = 0; i < 3; i++) {
      const t = await m.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id));
      expect(t.response.status).toBe(202);
      expect(t.data).toEqual({
        success: true,
        event_id: expect.stringMatching(/^[0-9a-f]{24}$/),
        delivery_id: expect.stringMatching(/^[0-9a-f]{24}$/),
      });
      queued.push(t.data!.delivery_id);
    }
    const list = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", at(ep.id));
    expect(list.data!.items.map((d) => d.id)).toEqual([...queued].reverse());
    expect(list.data!.items[0]).toEqual({
      id: queued[2],
      event_id: expect.any(String),
      event_type: "webhook.test",
      webhook_id: ep.id,
      shipment: null,
      status: "pending",
      attempts: 0,
      last_attempt_at: null,
      next_attempt_at: expect.any(String),
      last_response_status: null,
      last_duration_ms: null,
      last_error: null,
      failure_class: null,
      last_response_excerpt: null,
      created_at: expect.any(String),
    });
    const page1 = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
      params: { path: { webhook_id: ep.id }, query: { limit: 2 } },
    });
    const page2 = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
      params: { path: { webhook_id: ep.id }, query: { limit: 2, cursor: page1.data!.next_cursor! } },
    });
    expect([...page1.data!.items, ...page2.data!.items].map((d) => d.id)).toEqual([...queued].reverse());
    expect(page2.data!.next_cursor).toBeNull();
    const failed = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
      params: { path: { webhook_id: ep.id }, query: { status: "failed" } },
    });
    expect(failed.data!.items).toEqual([]);
    expectError(
      await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
        params: { path: { webhook_id: ep.id }, query: { status: "in_flight" as "pending" } },
      }),
      400,
      "validation_failed",
      ["/query/status"],
    );
  });

  it("409 for a test event to a disabled endpoint and for re-delivering to one; re-delivering a pending delivery attempts that one", async () => {
    const ep = await create(m);
    const t = await m.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id));
    const redeliver = () =>
      m.POST("/webhook_deliveries/{delivery_id}/_redeliver", {
        params: { path: { delivery_id: t.data!.delivery_id } },
      });
    const deliveryIds = async () =>
      (
        await srv.handle.db.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", ep.id).execute()
      ).map((d) => d.id);
    // Pending, its next attempt a minute away: re-delivering brings it forward instead of queuing a second one.
    await sql`update webhook_deliveries set attempts = 1, due_at = now() + interval '1 minute' where id = ${t.data!.delivery_id}`.execute(
      srv.handle.db,
    );
    const now = await redeliver();
    expect(now.response.status).toBe(202);
    expect(now.data).toEqual({ success: true, event_id: t.data!.event_id, delivery_id: t.data!.delivery_id });
    expect(await deliveryIds()).toEqual([t.data!.delivery_id]);
    const due = await sql<{
      due: boolean;
    }>`select due_at <= now() as due from webhook_deliveries where id = ${t.data!.delivery_id}`.execute(srv.handle.db);
    expect(due.rows[0]!.due).toBe(true);

    await sql`update webhook_deliveries set status = 'failed', due_at = null, attempts = 8 where id = ${t.data!.delivery_id}`.execute(
      srv.handle.db,
    );
    await m.POST("/webhook_endpoints/{webhook_id}", { ...at(ep.id), body: { enabled: false } });
    expectError(await unchanged(() => m.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id))), 409, "conflict");
    expectError(await unchanged(redeliver), 409, "conflict");

    await m.POST("/webhook_endpoints/{webhook_id}", { ...at(ep.id), body: { enabled: true } });
    const again = await redeliver();
    expect(again.response.status).toBe(202);
    expect(again.data!.event_id).toBe(t.data!.event_id);
    const row = await srv.handle.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("id", "=", again.data!.delivery_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", attempts: 0, retry_base: 8, endpoint_id: ep.id });
    // The new one is pending now: asking again (by the old id) names it, and queues nothing more.
    const pending = await redeliver();
    expect(pending.response.status).toBe(202);
    expect(pending.data!.delivery_id).toBe(again.data!.delivery_id);
    expect((await deliveryIds()).sort()).toEqual([t.data!.delivery_id, again.data!.delivery_id].sort());
  });
});

describe("retention", () => {
  it("housekeeping deletes finished deliveries older than 30 days and their events; open ones stay", async () => {
    const m = await fresh();
    const ep = await create(m);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await m.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id))).data!);
    const [old, oldPending, recent] = ids as [
      S["WebhookDeliveryAccepted"],
      S["WebhookDeliveryAccepted"],
      S["WebhookDeliveryAccepted"],
    ];
    const db = srv.handle.db;
    await sql`update webhook_deliveries set status = 'succeeded', due_at = null where id in (${old.delivery_id}, ${recent.delivery_id})`.execute(
      db,
    );
    await sql`update webhook_deliveries set created_at = now() - interval '31 days' where id in (${old.delivery_id}, ${oldPending.delivery_id})`.execute(
      db,
    );
    await sql`update webhook_events set created_at = now() - interval '31 days' where id in (${old.event_id}, ${oldPending.event_id})`.execute(
      db,
    );
    // One row per statement: the batches loop until nothing old is left.
    expect(await pruneOlderThan(db, 30, 1)).toBeGreaterThanOrEqual(1);
    const left = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", at(ep.id));
    expect(left.data!.items.map((d) => d.id).sort()).toEqual([oldPending.delivery_id, recent.delivery_id].sort());
    const events = await db
      .selectFrom("webhook_events")
      .select("id")
      .where("id", "in", [old.event_id, oldPending.event_id, recent.event_id])
      .execute();
    expect(events.map((e) => e.id).sort()).toEqual([oldPending.event_id, recent.event_id].sort());
  });
});

describe("tenancy and roles", () => {
  it("another merchant's endpoint and delivery are 404 everywhere, and stay as they were", async () => {
    const ep = await create(m);
    const t = await m.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id));
    await sql`update webhook_deliveries set status = 'failed', due_at = null where id = ${t.data!.delivery_id}`.execute(
      srv.handle.db,
    );
    const calls: (() => Promise<{ response: Response; error?: unknown }>)[] = [
      () => other.GET("/webhook_endpoints/{webhook_id}", at(ep.id)),
      () => other.POST("/webhook_endpoints/{webhook_id}", { ...at(ep.id), body: { enabled: false } }),
      () => other.DELETE("/webhook_endpoints/{webhook_id}", at(ep.id)),
      () => other.POST("/webhook_endpoints/{webhook_id}/_rotate_secret", at(ep.id)),
      () => other.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id)),
      () => other.GET("/webhook_endpoints/{webhook_id}/deliveries", at(ep.id)),
      () =>
        other.POST("/webhook_deliveries/{delivery_id}/_redeliver", {
          params: { path: { delivery_id: t.data!.delivery_id } },
        }),
    ];
    for (const call of calls) {
      const e = expectError(await unchanged(call), 404, "not_found");
      expect(JSON.stringify(e)).not.toContain(ep.id);
    }
    expect((await other.GET("/webhook_endpoints")).data!.items.map((e) => e.id)).not.toContain(ep.id);
  });

  it("warehouse operators may not manage webhooks (403)", async () => {
    const w = await srv.operator();
    expectError(
      await unchanged(() =>
        w.POST("/webhook_endpoints/_create", { body: { url: URL_, event_types: ["webhook.test"] } }),
      ),
      403,
      "access_denied",
    );
    expectError(await w.GET("/webhook_endpoints"), 403, "access_denied");
  });
});

describe("destinations refused at connect time", () => {
  it("a stored URL that leads to loopback is refused when the request is made, and nothing arrives", async () => {
    const rx = await startReceiver();
    const guarded = await startTestServer({
      webhooks: { retrySchedule: [0.05], timeoutMs: 1000, allowPrivateNetworks: false },
      dispatcher: true,
    });
    try {
      const c = await guarded.merchant("guarded.example.com");
      const ep = await create(c, { event_types: ["webhook.test"] });
      // As if registered while private networks were allowed, or through a name that now resolves inside.
      await sql`update webhook_endpoints set url = ${rx.url("/inside")} where id = ${ep.id}`.execute(guarded.handle.db);
      const t = await c.POST("/webhook_endpoints/{webhook_id}/_test", at(ep.id));
      await expect
        .poll(async () => (await c.GET("/webhook_endpoints/{webhook_id}/deliveries", at(ep.id))).data!.items[0], {
          timeout: 5000,
        })
        .toMatchObject({
          id: t.data!.delivery_id,
          status: "failed",
          attempts: 2,
          last_response_status: null,
          last_error: "destination refused: 127.0.0.1 is a loopback address",
        });
      expect(rx.received).toEqual([]);
    } finally {
      await guarded.close();
      await rx.close();
    }
  });
});
