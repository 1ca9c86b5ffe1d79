// Protections an operator relies on: the per-caller rate limit and the lifetime of idempotency keys.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { forgetExpiredKeys } from "../../server/idempotency/index.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { announcement, expectError } from "../helpers/fixtures.ts";

let srv: TestServer;
useTestServer(
  (s) => {
    srv = s;
  },
  { rateLimitPerMinute: 3 },
);

describe("rate limit", () => {
  it("answers 429 rate_limited with Retry-After past the limit, per caller", async () => {
    const a = await srv.merchant();
    const b = await srv.merchant();
    for (let i = 0; i < 3; i++) expect((await a.GET("/inbound_shipments")).response.status).toBe(200);
    const limited = await a.GET("/inbound_shipments");
    expectError(limited, 429, "rate_limited");
    const retryAfter = Number(limited.response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await b.GET("/inbound_shipments")).response.status).toBe(200);
  });
});

describe("idempotency key lifetime", () => {
  const age = (key: string, hours: number) =>
    sql`update idempotency_keys set created_at = now() - make_interval(hours => ${hours}) where key = ${key}`.execute(
      srv.handle.db,
    );

  it("a key older than 24 hours is forgotten: the housekeeping deletes it, a reuse starts afresh", async () => {
    const m = await srv.merchant();
    const first = await m.POST("/inbound_shipments/_create", {
      params: { header: { "Idempotency-Key": "old-key" } },
      body: announcement(),
    });
    expect(first.response.status).toBe(201);
    await m.POST("/inbound_shipments/_create", {
      params: { header: { "Idempotency-Key": "fresh-key" } },
      body: announcement(),
    });
    await age("old-key", 25);

    const reused = await m.POST("/inbound_shipments/_create", {
      params: { header: { "Idempotency-Key": "old-key" } },
      body: announcement({ merchants_ref: "PO-OTHER" }),
    });
    expect(reused.response.status).toBe(201);
    expect(reused.data!.shipment_id).not.toBe(first.data!.shipment_id);

    await age("old-key", 25);
    expect(await forgetExpiredKeys(srv.handle.db)).toBe(1);
    const keys = await srv.handle.db.selectFrom("idempotency_keys").select("key").execute();
    expect(keys.map((k) => k.key)).toContain("fresh-key");
    expect(keys.map((k) => k.key)).not.toContain("old-key");
  });
});
