// The client's own behaviour: retries, timeouts, idempotency keys, typed errors and pagination, against
// a scripted HTTP server (to misbehave on purpose) and the real service.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  basicAuthorization,
  createLogisticsClient,
  pages,
  paginate,
  type ClientOptions,
} from "../../client/index.ts";
import { announcement, createShipment } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

/** Answers each request with the next scripted answer ("drop" closes the socket without an answer). */
async function scripted(
  answers: (number | "drop" | { status: number; headers?: Record<string, string>; delayMs?: number; body?: string })[],
) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() });
      const a = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      if (a === "drop") return void req.socket.destroy();
      const { status, headers = {}, delayMs = 0, body: text } = typeof a === "number" ? { status: a } : a;
      setTimeout(() => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(
          text ??
            (status < 400
              ? JSON.stringify({ items: [], next_cursor: null, success: true, shipment_id: "0".repeat(24) })
              : JSON.stringify({
                  success: false,
                  code: status === 429 ? "rate_limited" : "unavailable",
                  message: "try later",
                  details: [],
                  request_id: "req-1",
                })),
        );
      }, delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2015-01-01`;
  return {
    seen,
    base,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const fast = (base: string, extra: Partial<ClientOptions> = {}) =>
  createLogisticsClient({
    baseUrl: base,
    username: "M-shop.example.com",
    secret: "s",
    retries: { maxRetries: 3, initialDelayMs: 10, maxDelayMs: 200 },
    ...extra,
  });

describe("retries", () => {
  it("retries a GET on 503 and 429, honouring Retry-After, then returns the answer", async () => {
    const s = await scripted([
      { status: 503, headers: { "retry-after": "0" } },
      { status: 429, headers: { "retry-after": "1" } },
      200,
    ]);
    try {
      const r = await fast(s.base, { retries: { maxRetries: 3, initialDelayMs: 10, maxDelayMs: 5_000 } }).GET(
        "/inbound_shipments",
        {},
      );
      expect(r.response.status).toBe(200);
      expect(s.seen).toHaveLength(3);
      // Retry-After: 1 means at least a second before the third attempt.
      expect(s.seen[2]!.at - s.seen[1]!.at).toBeGreaterThanOrEqual(950);
    } finally {
      await s.close();
    }
  });

  it("reads Retry-After as the service's webhook sender does (server/shared/retry-after.ts): a date without a weekday is no wait", async () => {
    // Date.parse would read "Nov 25 2030" as years ahead, and the client would wait its longest delay.
    const s = await scripted([{ status: 429, headers: { "retry-after": "Nov 25 2030" } }, 200]);
    try {
      const r = await fast(s.base, { retries: { maxRetries: 1, initialDelayMs: 10, maxDelayMs: 5_000 } }).GET(
        "/inbound_shipments",
        {},
      );
      expect(r.response.status).toBe(200);
      expect(s.seen[1]!.at - s.seen[0]!.at).toBeLessThan(1_000);
    } finally {
      await s.close();
    }
  });

  it("gives up after maxRetries and returns the last answer as a typed error", async () => {
    const s = await scripted([503]);
    try {
      const r = await fast(s.base).GET("/inbound_shipments", {});
      expect(r.response.status).toBe(503);
      expect(r.error).toMatchObject({ code: "unavailable" });
      expect(s.seen).toHaveLength(4);
    } finally {
      await s.close();
    }
  });

  it("retries a dropped connection of a GET; without retries it is an ApiConnectionError", async () => {
    const s = await scripted(["drop", 200]);
    try {
      expect((await fast(s.base).GET("/inbound_shipments", {})).response.status).toBe(200);
    } finally {
      await s.close();
    }
    const dead = await scripted(["drop"]);
    try {
      await expect(createLogisticsClient({ baseUrl: dead.base }).GET("/inbound_shipments", {})).rejects.toBeInstanceOf(
        ApiConnectionError,
      );
      expect(dead.seen).toHaveLength(1);
    } finally {
      await dead.close();
    }
  });

  it("names the cause of a failed connection: a refused port says ECONNREFUSED, not only 'fetch failed'", async () => {
    const closed = await scripted([]);
    await closed.close();
    const error = await fast(closed.base)
      .GET("/inbound_shipments", {})
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect((error as ApiConnectionError).code).toBe("ECONNREFUSED");
    expect((error as ApiConnectionError).message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/2015-01-01\/inbound_shipments: .*\(ECONNREFUSED\)$/,
    );
  });

  it("never repeats a POST without an Idempotency-Key", async () => {
    const s = await scripted([503, 200]);
    try {
      const r = await fast(s.base).POST("/inbound_shipments/{shipment_id}/_delete", {
        params: { path: { shipment_id: "0".repeat(24) } },
      });
      expect(r.response.status).toBe(503);
      expect(s.seen).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it("gives a creating POST one key, sent unchanged on every retry with the same body", async () => {
    const s = await scripted([503, "drop", 201]);
    try {
      const r = await fast(s.base).POST("/inbound_shipments/_create", { body: announcement() });
      expect(r.response.status).toBe(201);
      expect(s.seen).toHaveLength(3);
      const keys = s.seen.map((x) => x.headers["idempotency-key"]);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(keys).size).toBe(1);
      expect(new Set(s.seen.map((x) => x.body)).size).toBe(1);
      expect(JSON.parse(s.seen[0]!.body)).toEqual(announcement());
    } finally {
      await s.close();
    }
  });

  it("keeps the caller's own key, and adds none when retries are off", async () => {
    const s = await scripted([201]);
    try {
      await fast(s.base).POST("/inbound_shipments/_create", {
        body: announcement(),
        params: { header: { "Idempotency-Key": "order-42" } },
      });
      await createLogisticsClient({ baseUrl: s.base }).POST("/inbound_shipments/_create", { body: announcement() });
      expect(s.seen.map((x) => x.headers["idempotency-key"])).toEqual(["order-42", undefined]);
    } finally {
      await s.close();
    }
  });
});

describe("timeouts and cancellation", () => {
  it("fails an attempt that takes longer than timeoutMs with ApiTimeoutError", async () => {
    // Wide margins: a loaded test machine may run a timer late, never 10 s late.
    const s = await scripted([{ status: 200, delayMs: 10_000 }]);
    try {
      const started = Date.now();
      await expect(
        createLogisticsClient({ baseUrl: s.base, timeoutMs: 200 }).GET("/inbound_shipments", {}),
      ).rejects.toBeInstanceOf(ApiTimeoutError);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await s.close();
    }
  });

  it("ends an attempt at timeoutMs even when the fetch underneath ignores its abort signal (nodejs/undici#4068)", async () => {
    let calls = 0;
    const deaf = () => {
      calls++;
      return new Promise<Response>((resolve) => setTimeout(() => resolve(new Response("{}", { status: 200 })), 5_000));
    };
    const started = Date.now();
    await expect(
      createLogisticsClient({ baseUrl: "http://127.0.0.1:9/2015-01-01", timeoutMs: 100, fetch: deaf }).GET(
        "/inbound_shipments",
        {},
      ),
    ).rejects.toBeInstanceOf(ApiTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(calls).toBe(1);
    const abort = new AbortController();
    const pending = createLogisticsClient({ baseUrl: "http://127.0.0.1:9/2015-01-01", fetch: deaf }).GET(
      "/inbound_shipments",
      { signal: abort.signal },
    );
    setTimeout(() => abort.abort(), 50);
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it("retries a timed-out GET, and a caller's abort stops at once without retrying", async () => {
    const s = await scripted([{ status: 200, delayMs: 10_000 }, 200]);
    try {
      expect((await fast(s.base, { timeoutMs: 150 }).GET("/inbound_shipments", {})).response.status).toBe(200);
      const before = s.seen.length;
      const abort = new AbortController();
      abort.abort();
      await expect(fast(s.base).GET("/inbound_shipments", { signal: abort.signal })).rejects.toThrow();
      expect(s.seen.length).toBe(before);
    } finally {
      await s.close();
    }
  });
});

describe("against the service", () => {
  let srv: TestServer;
  const merchant = "client-sdk.example.com";
  beforeAll(async () => {
    srv = await startTestServer();
    await srv.merchant(merchant);
  });
  afterAll(async () => srv?.close());

  it("throwOnError gives an ApiError with the status, code, details and request id", async () => {
    const m = await srv.merchant(merchant);
    const good = await m.GET("/inbound_shipments", {});
    expect(good.response.status).toBe(200);
    const strict = createLogisticsClient({
      baseUrl: srv.baseUrl,
      username: `M-${merchant}`,
      secret: "wrong",
      throwOnError: true,
    });
    const e401 = await strict.GET("/inbound_shipments", {}).catch((e: unknown) => e);
    expect(e401).toBeInstanceOf(ApiError);
    expect(e401).toMatchObject({ status: 401, code: "unauthorized" });
    expect((e401 as ApiError).requestId).toEqual(expect.any(String));
  });

  it("pages and paginate walk every page of a list", async () => {
    const m = await srv.merchant(merchant);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await createShipment(m, announcement({ merchants_ref: `PAGE-${i}` })));
    const seenPages = [];
    for await (const p of pages(m, "/inbound_shipments", { params: { query: { limit: 2 } } }))
      seenPages.push(p.items.length);
    expect(seenPages).toEqual([2, 2, 1]);
    const all = [];
    for await (const s of paginate(m, "/inbound_shipments", { params: { query: { limit: 2 } } })) all.push(s.id);
    expect(all.sort()).toEqual([...ids].sort());
  });

  it("a page that fails throws ApiError from the iterator", async () => {
    const m = await srv.merchant(merchant);
    const it = paginate(m, "/inbound_shipments", { params: { query: { cursor: "bogus" } } });
    await expect(it.next()).rejects.toMatchObject({ status: 400, code: "validation_failed" });
  });

  it("sends Basic credentials as UTF-8 without Node's Buffer", () => {
    expect(basicAuthorization("M-shop.example.com", "pä55")).toBe(
      `Basic ${Buffer.from("M-shop.example.com:pä55", "utf8").toString("base64")}`,
    );
  });
});
