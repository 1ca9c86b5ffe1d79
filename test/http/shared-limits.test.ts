// Limits that hold for all instances on one database together: two app instances serve one database,
// and what a caller spends on one counts on the other (failed sign-ins, requests, body bytes a minute).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { announcement, expectError } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const LIMITS = {
  rateLimitPerMinute: 40,
  bodyBytesPerMinute: 20_000,
  loginLimits: { perAddress: 1000, perAccount: 6, windowMs: 60_000 },
};
let a: TestServer;
let b: TestServer;
const TOKEN = "t".repeat(32);
beforeAll(async () => {
  a = await startTestServer({ ...LIMITS, metricsToken: TOKEN });
  b = await startTestServer({ ...LIMITS, database: a.handle });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

// Each instance sends its counts to the database every 100 ms: wait for that before switching.
const flushed = () => new Promise((r) => setTimeout(r, 300));

/** Requests on instance a that waited for a round trip to learn their caller's total (/metrics). */
async function waitedOnA(): Promise<number> {
  const text = await (await fetch(`${a.origin}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith("http_requests_waited_limit_total "));
  expect(line, text.slice(0, 500)).toBeDefined();
  return Number(line!.split(" ")[1]);
}

describe("limits shared by two instances on one database", () => {
  it("failed sign-ins: 3 on one instance and 3 on the other reach the limit of 6; both then refuse, the right secret too", async () => {
    await provisionAccount(a.handle.db, "merchant", "guessed.example.com", "right-secret-1");
    for (const srv of [a, a, a, b, b, b])
      expectError(
        await srv.client("M-guessed.example.com", "wrong-secret").GET("/inbound_shipments"),
        401,
        "unauthorized",
      );
    for (const srv of [a, b]) {
      for (const secret of ["wrong-secret", "right-secret-1"]) {
        const r = await srv.client("M-guessed.example.com", secret).GET("/inbound_shipments");
        expectError(r, 429, "rate_limited");
        expect(Number(r.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it("a blocked address cannot tell a right secret from a wrong one on an instance that served the right one moments ago", async () => {
    await provisionAccount(a.handle.db, "merchant", "owner.example.com", "owner-secret-1");
    expect((await a.client("M-owner.example.com", "owner-secret-1").GET("/inbound_shipments")).response.status).toBe(
      200,
    );
    for (let i = 0; i < 6; i++)
      expectError(await b.client("M-owner.example.com", `guess-${i}`).GET("/inbound_shipments"), 401, "unauthorized");
    // Instance a has the right secret verified; the wrong guess reads the shared count, and from then on
    // the right secret is refused there as well.
    expectError(await a.client("M-owner.example.com", "guess-x").GET("/inbound_shipments"), 429, "rate_limited");
    expectError(await a.client("M-owner.example.com", "owner-secret-1").GET("/inbound_shipments"), 429, "rate_limited");
  });

  it(`requests a minute: ${LIMITS.rateLimitPerMinute / 2} on each instance spend the caller's ${LIMITS.rateLimitPerMinute}; both then answer 429, another caller is served`, async () => {
    const onA = await a.merchant("busy.example.com");
    const onB = b.client("M-busy.example.com", "secret-busy.example.com");
    for (let i = 0; i < LIMITS.rateLimitPerMinute / 2; i++)
      expect((await onA.GET("/inbound_shipments")).response.status).toBe(200);
    await flushed();
    for (let i = 0; i < LIMITS.rateLimitPerMinute / 2; i++)
      expect((await onB.GET("/inbound_shipments")).response.status).toBe(200);
    await flushed();
    // Idle here for longer than an interval: instance a reads the caller's total first, and so sees b's spending.
    const waited = await waitedOnA();
    for (const c of [onA, onB]) {
      const r = await c.GET("/inbound_shipments");
      expectError(r, 429, "rate_limited");
      const wait = Number(r.response.headers.get("retry-after"));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    expect(await waitedOnA()).toBeGreaterThan(waited);
    expect((await (await b.merchant("calm.example.com")).GET("/inbound_shipments")).response.status).toBe(200);
  });

  it("body bytes a minute: what one instance took counts on the other, and a refused write stores nothing", async () => {
    const onA = await a.merchant("writer.example.com");
    const onB = b.client("M-writer.example.com", "secret-writer.example.com");
    const big = (n: number) =>
      announcement({
        merchants_ref: `W-${n}`,
        products: Array.from({ length: 40 }, (_, i) => ({
          merchants_id: `SKU-${n}-${i}`,
          name: `Product ${i} ${"x".repeat(60)}`,
          qty: 1,
        })),
      });
    const size = Buffer.byteLength(JSON.stringify(big(0)));
    const fit = Math.floor(LIMITS.bodyBytesPerMinute / size);
    expect(fit).toBeGreaterThanOrEqual(2);
    for (let n = 0; n < fit - 1; n++)
      expect((await onA.POST("/inbound_shipments/_create", { body: big(n) })).response.status).toBe(201);
    await flushed();
    expect((await onB.POST("/inbound_shipments/_create", { body: big(fit - 1) })).response.status).toBe(201);
    await flushed();
    const before = await a.snapshot();
    expectError(await onA.POST("/inbound_shipments/_create", { body: big(fit) }), 429, "rate_limited");
    expectError(await onB.POST("/inbound_shipments/_create", { body: big(fit + 1) }), 429, "rate_limited");
    expect(await a.snapshot()).toEqual(before);
  });
});
