// Publishable keys: created, listed and revoked by the merchant; what a request made with one may do (CORS by the
// key's origins, its own allowances), and every bad input refused with nothing stored.
import { describe, expect, it } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";
import { loadDemo } from "../helpers/shipping.ts";
import { DEMO_PUBLISHABLE_KEY } from "../../server/publishable-keys/demo.ts";
import { TOKEN_PATTERN } from "../../server/publishable-keys/keys.ts";

type S = components["schemas"];
const SHOP = "https://shop.keys.example";

let srv: TestServer;
let m: LogisticsClient;
useTestServer(async (s) => {
  srv = s;
  await loadDemo(srv);
  m = await srv.merchant();
});

async function createKey(c: LogisticsClient, body: S["PublishableKeyCreate"] = { origins: [SHOP] }) {
  const r = await c.POST("/publishable_keys/_create", { body });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  return r.data!;
}

/** A request as a page of `origin` makes it (or a program, without `origin`). */
const options = (key: string, origin?: string, base = srv.baseUrl) =>
  fetch(`${base}/shipping_options?postalcode=20780&country=FI`, {
    headers: { Authorization: `Bearer ${key}`, ...(origin && { Origin: origin }) },
  });
const preflight = (path: string, origin: string, method = "GET") =>
  fetch(`${srv.baseUrl}${path}`, {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": method,
      "Access-Control-Request-Headers": "authorization",
    },
  });

describe("publishable keys", () => {
  it("are created with a pk_ key, listed newest first, and revoked", async () => {
    const own = await srv.merchant();
    const first = await createKey(own, { name: "Web shop", origins: [SHOP, "http://localhost:8080"] });
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      key: expect.stringMatching(/^pk_[A-Za-z0-9]{32}$/),
      name: "Web shop",
      origins: [SHOP, "http://localhost:8080"],
      created_at: expect.stringMatching(/\+00:00$/),
      revoked_at: null,
    });
    const second = await createKey(own);
    expect(second.name).toBe("");
    expect(second.key).not.toBe(first.key);
    const listed = await own.GET("/publishable_keys");
    expect(listed.data!.items.map((k) => k.id)).toEqual([second.id, first.id]);
    const revoked = await own.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: first.id } } });
    expect(revoked.response.status).toBe(200);
    expect(revoked.data!.revoked_at).toMatch(/\+00:00$/);
    const again = await own.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: first.id } } });
    expect(again.data).toEqual(revoked.data);
  });

  it("another merchant's key does not exist for you (404), and nothing changes", async () => {
    const other = await createKey(await srv.merchant());
    const r = await expectUnchanged(srv, () =>
      m.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: other.id } } }),
    );
    expectError(r, 404, "not_found");
    expect((await m.GET("/publishable_keys")).data!.items.map((k) => k.id)).not.toContain(other.id);
  });

  const bad: [string, unknown, string][] = [
    ["no origins", { origins: [] }, "/body/origins"],
    ["origins missing", { name: "x" }, "/body/origins"],
    ["an origin with a path", { origins: ["https://shop.example.com/checkout"] }, "/body/origins/0"],
    ["an origin with a trailing slash", { origins: ["https://shop.example.com/"] }, "/body/origins/0"],
    ["an origin in upper case", { origins: ["https://Shop.example.com"] }, "/body/origins/0"],
    ["a scheme other than http(s)", { origins: ["ftp://shop.example.com"] }, "/body/origins/0"],
    ["the scheme's default port", { origins: ["https://shop.example.com:443"] }, "/body/origins/0"],
    ["a port past 65535", { origins: ["https://shop.example.com:70000"] }, "/body/origins/0"],
    ["a wildcard", { origins: ["*"] }, "/body/origins/0"],
    ["an origin twice", { origins: [SHOP, SHOP] }, "/body/origins"],
    ["21 origins", { origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) }, "/body/origins"],
    ["a name of 101 characters", { name: "x".repeat(101), origins: [SHOP] }, "/body/name"],
    ["a name with leading space", { name: " x", origins: [SHOP] }, "/body/name"],
    ["an unknown property", { origins: [SHOP], origin: SHOP }, "/body/origin"],
  ];
  it.each(bad)("refuses %s: 400 validation_failed naming it, nothing stored", async (_name, body, path) => {
    const r = await expectUnchanged(srv, () =>
      m.POST("/publishable_keys/_create", { body: body as S["PublishableKeyCreate"] }),
    );
    expectError(r, 400, "validation_failed", [path]);
  });

  it("works at most 50 at once per merchant: the 51st is 409 conflict until one is revoked", async () => {
    const own = await srv.merchant();
    const keys = [];
    for (let i = 0; i < 50; i++) keys.push(await createKey(own));
    const r = await expectUnchanged(srv, () => own.POST("/publishable_keys/_create", { body: { origins: [SHOP] } }));
    expectError(r, 409, "conflict");
    await own.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: keys[0]!.id } } });
    await createKey(own);
  });
});

describe("a request made with a publishable key", () => {
  it("the demo merchant's key (the demo checkout page's) is a well-formed key", () => {
    expect(DEMO_PUBLISHABLE_KEY).toMatch(TOKEN_PATTERN);
  });

  it("answers shipping options and the pickup point lookup through the client package's publishableKey", async () => {
    const { key } = await createKey(m);
    const page = createLogisticsClient({ baseUrl: srv.baseUrl, publishableKey: key });
    const opts = await page.GET("/shipping_options", { params: { query: { postalcode: "20780", country: "FI" } } });
    expect(opts.response.status).toBe(200);
    const lookup = await page.GET("/pickup_points/lookup", {
      params: { query: { postalcode: "20780", country: "FI" } },
    });
    expect(lookup.response.status).toBe(200);
    expect(lookup.data!.pickup_points.length).toBeGreaterThan(0);
  });

  it("from a listed origin carries CORS headers for it; without Origin (not a page) none", async () => {
    const { key } = await createKey(m, { origins: [SHOP] });
    const r = await options(key, SHOP);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(r.headers.get("access-control-expose-headers")).toMatch(/X-Request-Id/);
    expect(r.headers.get("vary")).toMatch(/Origin/);
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    const program = await options(key);
    expect(program.status).toBe(200);
    expect(program.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("from an origin the key does not list is 403, a refusal the page can read (naming its origin), never data; nothing stored", async () => {
    const { key } = await createKey(m, { origins: [SHOP] });
    // Listed by another merchant's key: that key's origins are not this one's.
    await createKey(await srv.merchant(), { origins: ["https://other.keys.example"] });
    const before = await srv.snapshot();
    for (const origin of ["https://evil.keys.example", "https://other.keys.example", "http://shop.keys.example"]) {
      const r = await options(key, origin);
      expect(r.status, origin).toBe(403);
      const body = (await r.json()) as S["Error"];
      expect(body.code).toBe("access_denied");
      expect(body.message).toContain(origin);
      expect(body).not.toHaveProperty("options");
      // Readable by that page (the checkout picker tells the shop what to do), without credentials.
      expect(r.headers.get("access-control-allow-origin")).toBe(origin);
      expect(r.headers.get("access-control-allow-credentials")).toBeNull();
      expect(r.headers.get("vary")).toMatch(/Origin/);
    }
    expect(await srv.snapshot()).toEqual(before);
  });

  it("answers a preflight from any origin for the operations a key may call (the request is checked), and refuses other methods and operations", async () => {
    await createKey(m, { origins: ["https://preflight.keys.example"] });
    for (const [path, origin] of [
      ["/shipping_options", "https://preflight.keys.example"],
      ["/pickup_points/lookup", "https://preflight.keys.example"],
      // No key lists it: the page may send its request and read the refusal (403 above).
      ["/shipping_options", "https://unlisted.keys.example"],
    ] as const) {
      const ok = await preflight(path, origin);
      expect(ok.status, `${path} from ${origin}`).toBe(204);
      expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
      expect(ok.headers.get("access-control-allow-headers")).toMatch(/Authorization/i);
      expect(ok.headers.get("access-control-allow-methods")).toMatch(/GET/);
      expect(ok.headers.get("access-control-allow-credentials")).toBeNull();
      expect(Number(ok.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    }
    for (const [path, origin, method, status] of [
      ["/shipping_options", "https://preflight.keys.example", "POST", 403],
      // Operations no publishable key may call: a method the resource lacks, as ever.
      ["/orders/_create", "https://preflight.keys.example", "POST", 405],
      ["/inbound_shipments", "https://preflight.keys.example", "GET", 405],
    ] as const) {
      const r = await preflight(path, origin, method);
      expect(r.status, `${method} ${path} from ${origin}`).toBe(status);
      expect(r.headers.get("access-control-allow-origin")).toBeNull();
    }
    // An OPTIONS that is not a preflight is what it was: 405.
    const plain = await fetch(`${srv.baseUrl}/shipping_options`, { method: "OPTIONS" });
    expect(plain.status).toBe(405);
  });

  it("asking for explain=true is 403 access_denied (the price lists stay the merchant's), nothing stored; false is 200", async () => {
    const { key } = await createKey(m, { origins: [SHOP] });
    const ask = (explain: string) =>
      fetch(`${srv.baseUrl}/shipping_options?postalcode=20780&country=FI&explain=${explain}`, {
        headers: { Authorization: `Bearer ${key}`, Origin: SHOP },
      });
    const before = await srv.snapshot();
    const refused = await ask("true");
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as S["Error"];
    expect(body.code).toBe("access_denied");
    expect(body.message).toMatch(/explain/);
    expect(body.details).toEqual([]);
    // Refused to the page in words it can read (CORS), as the key's other refusals.
    expect(refused.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(await srv.snapshot()).toEqual(before);
    const plain = await ask("false");
    expect(plain.status).toBe(200);
    expect(await plain.json()).not.toHaveProperty("explanation");
    // The merchant's own secret still gets its explanation.
    const own = await m.GET("/shipping_options", {
      params: { query: { postalcode: "20780", country: "FI", explain: true } },
    });
    expect(own.response.status).toBe(200);
    expect(own.data).toHaveProperty("explanation");
  });

  it("with a revoked key is 401 within a second; an unknown or malformed key is 401", async () => {
    const created = await createKey(m);
    expect((await options(created.key)).status).toBe(200);
    await m.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: created.id } } });
    const deadline = Date.now() + 1500;
    let status = 200;
    while (status === 200 && Date.now() < deadline) status = (await options(created.key)).status;
    expect(status).toBe(401);
    for (const key of ["pk_" + "A".repeat(32), "pk_short", "sk_" + "A".repeat(32), "x".repeat(300)]) {
      const r = await options(key);
      expect(r.status, key).toBe(401);
      expect(((await r.json()) as S["Error"]).code).toBe("unauthorized");
    }
    // From a page: a refusal it can read (the checkout picker says the options cannot be shown there), not data.
    const fromPage = await options(created.key, SHOP);
    expect(fromPage.status).toBe(401);
    expect(((await fromPage.json()) as S["Error"]).code).toBe("unauthorized");
    expect(fromPage.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(fromPage.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("is limited per key and per client address (429 rate_limited with Retry-After), other keys unaffected", async () => {
    const limited = await startTestServer({
      publishableKeyRequestsPerMinute: 5,
      publishableAddressRequestsPerMinute: 8,
    });
    try {
      await loadDemo(limited);
      const merchant = await limited.merchant();
      const one = (await merchant.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!.key;
      const two = (await merchant.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!.key;
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await options(one, SHOP, limited.baseUrl)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const refused = await options(one, SHOP, limited.baseUrl);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.headers.get("access-control-allow-origin")).toBe(SHOP);
      // The second key has its own allowance, but this address has spent most of its own on the first.
      const more = [];
      for (let i = 0; i < 4; i++) more.push((await options(two, SHOP, limited.baseUrl)).status);
      expect(more.filter((s) => s === 200).length).toBeGreaterThan(0);
      expect(more).toContain(429);
      // The merchant's own secret is not spent by its page's key.
      expect((await merchant.GET("/publishable_keys")).response.status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
