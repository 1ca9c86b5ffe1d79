// Regression tests of issue 6 (findings 1, 2, 3, 5 and 6): each hostile input gets its exact status
// and error code, and a refused request leaves every stored row as it was.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import {
  announcement,
  arrive,
  basicAuth,
  createShipment,
  expectError,
  expectUnchanged,
  getShipment,
  moveTo,
} from "../helpers/fixtures.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { shipmentIn } from "../helpers/statuses.ts";

type S = components["schemas"];

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
const MERCHANT = "M-hostile.example.com";
const OPERATOR = "W-hostile-wh.example.com";
const mAuth = basicAuth(MERCHANT, "merchant-secret-1");
const wAuth = basicAuth(OPERATOR, "operator-secret-1");
let shipmentId: string;

useTestServer(async (s) => {
  srv = s;
  await provisionAccount(srv.handle.db, "merchant", "hostile.example.com", "merchant-secret-1");
  await provisionAccount(srv.handle.db, "operator", "hostile-wh.example.com", "operator-secret-1");
  m = srv.client(MERCHANT, "merchant-secret-1");
  w = srv.client(OPERATOR, "operator-secret-1");
  shipmentId = await createShipment(m);
});

const unchanged = <R>(request: () => Promise<R>) => expectUnchanged(srv, request);

/** fetch with a text body; the answer parsed as JSON when it is JSON. */
async function send(
  path: string,
  init: { method?: string; auth?: string; type?: string | null; body?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = {
    ...(init.auth !== undefined ? { Authorization: init.auth } : { Authorization: mAuth }),
    ...init.headers,
  };
  if (init.body !== undefined && init.type !== null) headers["Content-Type"] = init.type ?? "application/json";
  const response = await fetch(srv.baseUrl + path, { method: init.method ?? "GET", headers, body: init.body });
  const text = await response.text();
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { response, error, text };
}
const create = (body: string, type?: string) => send("/inbound_shipments/_create", { method: "POST", body, type });
const arrivals = (id: string, body: string) =>
  send(`/inbound_shipments/${id}/arrivals`, { method: "POST", auth: wAuth, body });
const validJson = () =>
  JSON.stringify(announcement({ merchants_ref: `PO-${Math.random().toString(36).slice(2, 10)}` }));
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");

describe("finding 1: deeply nested JSON is 400 validation_failed, never a stack overflow", () => {
  it.each([3_000, 100_000])("%i levels of [ in a create body", async (depth) => {
    const r = await unchanged(() => create(`${"[".repeat(depth)}${"]".repeat(depth)}`));
    const error = expectError(r, 400, "validation_failed");
    expect(error.details[0]).toMatchObject({ code: "depth" });
  });

  it("3,000 levels inside a field of an arrivals body name where the nesting got too deep", async () => {
    const id = await createShipment(m);
    const body = `{"arrivals":[{"merchants_id":"SKU-1001","change":1,"name":${"[".repeat(3000)}${"]".repeat(3000)}}]}`;
    const error = expectError(await unchanged(() => arrivals(id, body)), 400, "validation_failed");
    expect(error.details).toHaveLength(1);
    expect(error.details[0]!.code).toBe("depth");
    expect(error.details[0]!.path.startsWith("/body/arrivals/0/name/0/0")).toBe(true);
  });

  it("objects nested 40 deep are refused; the limit is 32 levels", async () => {
    let deep = "1";
    for (let i = 0; i < 40; i++) deep = `{"a":${deep}}`;
    const r = await unchanged(() => create(`{"merchants_ref":"PO-1","sender_name":"S","products":[],"x":${deep}}`));
    expect(expectError(r, 400, "validation_failed").details[0]!.code).toBe("depth");
  });
});

describe("finding 2: broken text is 400 naming the field, and nothing is stored", () => {
  const withSku = (sku: string, name = "Thing") =>
    `{"merchants_ref":"PO-U","sender_name":"Acme","products":[{"merchants_id":"${sku}","name":"${name}","qty":1}]}`;

  it("an unpaired high surrogate in merchants_id", async () => {
    const error = expectError(await unchanged(() => create(withSku("SKU-\\ud800"))), 400, "validation_failed", [
      "/body/products/0/merchants_id",
    ]);
    expect(error.details[0]!.code).toBe("unicode");
  });

  it("two unpaired surrogates in one request (was an ON CONFLICT 500)", async () => {
    const body = `{"merchants_ref":"PO-U","sender_name":"Acme","products":[{"merchants_id":"SKU-\\ud800","qty":1},{"merchants_id":"SKU-\\udbff","qty":1}]}`;
    expectError(await unchanged(() => create(body)), 400, "validation_failed", [
      "/body/products/0/merchants_id",
      "/body/products/1/merchants_id",
    ]);
  });

  it("an unpaired low surrogate in a name, and one in an object key", async () => {
    expectError(await unchanged(() => create(withSku("SKU-1", "T-shirt \\udc00"))), 400, "validation_failed", [
      "/body/products/0/name",
    ]);
    const key = `{"merchants_ref":"PO-U","sender_name":"Acme","products":[{"merchants_id":"SKU-1","qty":1}],"x\\udc00":1}`;
    expectError(await unchanged(() => create(key)), 400, "validation_failed");
  });

  it("invalid UTF-8 bytes are refused, not stored as U+FFFD", async () => {
    const body = Buffer.concat([
      Buffer.from('{"merchants_ref":"PO-U","sender_name":"Acme '),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('","products":[{"merchants_id":"SKU-1","qty":1}]}'),
    ]);
    const r = await unchanged(async () => {
      const response = await fetch(`${srv.baseUrl}/inbound_shipments/_create`, {
        method: "POST",
        headers: { Authorization: mAuth, "Content-Type": "application/json" },
        body,
      });
      return { response, error: await response.json() };
    });
    expect(expectError(r, 400, "validation_failed", ["/body"]).details[0]!.code).toBe("encoding");
  });

  it("well-formed text outside the BMP is stored exactly", async () => {
    const name = "Boxed \u{1F4E6} \u00e4\u00f6 \u0627\u0644\u0639\u0631\u0628\u064a\u0629";
    const id = await createShipment(
      m,
      announcement({ merchants_ref: "PO-EMOJI", products: [{ merchants_id: "SKU-\u{1F600}", name, qty: 1 }] }),
    );
    const line = (await getShipment(m, id)).products[0]!;
    expect(line.product).toMatchObject({ merchants_id: "SKU-\u{1F600}", name });
  });
});

describe("finding 3: an arrival ts outside 2000-01-01 .. now + 5 minutes is 400", () => {
  const body = (ts: string) => JSON.stringify({ ts, arrivals: [{ merchants_id: "SKU-1001", change: 1 }] });
  it.each([
    ["year 0", "0000-01-01T00:00:00Z"],
    ["year 1 with a positive offset (before year 1 in UTC)", "0001-01-01T00:00:00+01:00"],
    ["1970", "1970-01-01T00:00:00+00:00"],
    ["one second before 2000", "1999-12-31T23:59:59Z"],
    ["ten minutes ahead", iso(Date.now() + 10 * 60_000)],
  ])("%s", async (_name, ts) => {
    const error = expectError(await unchanged(() => arrivals(shipmentId, body(ts))), 400, "validation_failed", [
      "/body/ts",
    ]);
    expect(["too_early", "future"]).toContain(error.details.find((d) => d.path === "/body/ts")!.code);
  });

  it("2000-01-01T00:00:00Z and one minute ahead are accepted", async () => {
    const id = await createShipment(m);
    for (const ts of ["2000-01-01T00:00:00Z", iso(Date.now() + 60_000)]) {
      expect((await arrivals(id, body(ts))).response.status, ts).toBe(200);
    }
  });

  it("updated_since in year 0 lists everything instead of failing in SQL", async () => {
    const r = await send("/inbound_shipments?updated_since=0000-01-01T00:00:00Z");
    expect(r.response.status).toBe(200);
    expect((r.error as S["InboundShipmentList"]).items.length).toBeGreaterThan(0);
  });
});

describe("finding 5: modification and arrivals follow the status, also after processed -> problem", () => {
  it("processed: modify and arrivals are 409 invalid_state naming the status", async () => {
    const id = await shipmentIn("processed", m, w);
    const mod = await unchanged(() =>
      m.POST("/inbound_shipments/{shipment_id}", {
        params: { path: { shipment_id: id } },
        body: { expected_at_wh: "2016-02-01" },
      }),
    );
    expect(expectError(mod, 409, "invalid_state").message).toContain("processed");
    expectError(await unchanged(() => arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }])), 409, "invalid_state");
  });

  it("reopened as problem: the shipment is open again for the merchant and the warehouse", async () => {
    const id = await shipmentIn("processed", m, w);
    expect(
      (
        await moveTo(w, id, {
          status: "problem",
          problems: [{ type: "damaged", description: "Found wet after closing" }],
        })
      ).response.status,
    ).toBe(200);
    expect((await arrive(w, id, [{ merchants_id: "SKU-1001", change: -1 }])).response.status).toBe(200);
    const mod = await m.POST("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: id } },
      body: { products: [{ merchants_id: "SKU-1001", qty: 9 }] },
    });
    expect(mod.response.status).toBe(200);
    expect(mod.data!.status).toBe("problem");
    // It does not close by itself: reopening was the warehouse's decision, so is closing again.
    const s = await getShipment(m, id);
    expect(s.status).toBe("problem");
    expect(s.products.find((l) => l.product.merchants_id === "SKU-1001")).toMatchObject({ qty: 9, arrivedQty: 9 });
    expect((await moveTo(w, id, { status: "processed" })).data!.status).toBe("processed");
  });
});

describe("finding 6: the smaller ones", () => {
  it("HEAD is answered wherever GET is: same status and headers, no body", async () => {
    for (const path of [`/inbound_shipments/${shipmentId}`, "/inbound_shipments"]) {
      const get = await fetch(srv.baseUrl + path, { headers: { Authorization: mAuth } });
      const head = await fetch(srv.baseUrl + path, { method: "HEAD", headers: { Authorization: mAuth } });
      expect(head.status, path).toBe(200);
      expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
      expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
      expect(await head.text()).toBe("");
      await get.text();
    }
    const missing = await fetch(`${srv.baseUrl}/inbound_shipments/0000000000000000000000ff`, {
      method: "HEAD",
      headers: { Authorization: mAuth },
    });
    expect(missing.status).toBe(404);
    const post = await fetch(`${srv.baseUrl}/inbound_shipments/_create`, {
      method: "HEAD",
      headers: { Authorization: mAuth },
    });
    expect(post.status).toBe(405);
  });

  it("no ETag, so If-None-Match never turns a read into an undeclared 304", async () => {
    const first = await send(`/inbound_shipments/${shipmentId}`);
    expect(first.response.headers.get("etag")).toBeNull();
    for (const tag of ["*", 'W/"x"']) {
      expect(
        (await send(`/inbound_shipments/${shipmentId}`, { headers: { "If-None-Match": tag } })).response.status,
      ).toBe(200);
    }
  });

  it.each([
    ["POST", "/_confirm"],
    ["POST", "/_delete"],
    ["DELETE", ""],
  ])("%s %s with a text/plain body is 400 not_allowed (declared), not 415", async (method, suffix) => {
    const id = await createShipment(m);
    const r = await unchanged(() =>
      send(`/inbound_shipments/${id}${suffix}`, { method, body: "please", type: "text/plain" }),
    );
    expect(expectError(r, 400, "validation_failed", ["/body"]).details[0]!.code).toBe("not_allowed");
    expect((await getShipment(m, id)).status).toBe("initial");
  });

  it("a 20 KB header is 431 headers_too_large in the error shape", async () => {
    const r = await rawRequest(srv.origin, [
      `GET /2015-01-01/inbound_shipments HTTP/1.1`,
      `Host: x`,
      `Authorization: ${mAuth}`,
      `X-Filler: ${"a".repeat(20_000)}`,
    ]);
    expect(r.status).toBe(431);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toMatchObject({
      success: false,
      code: "headers_too_large",
      details: [],
      request_id: r.headers["x-request-id"],
    });
  });

  it("a 20,000-character URL is 431 headers_too_large", async () => {
    const r = await rawRequest(srv.origin, [
      `GET /2015-01-01/inbound_shipments?merchants_ref=${"a".repeat(20_000)} HTTP/1.1`,
      "Host: x",
    ]);
    expect(r.status).toBe(431);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, code: "headers_too_large" });
  });

  it("a reserved character left unencoded in a query value is 400 validation_failed naming it; encoded, it passes", async () => {
    // `@` alone takes the validator's quick read of the raw query; with `|` (which url.parse escapes) it takes url.parse.
    for (const ref of ["PO@1", "PO@1|2"]) {
      const r = await rawRequest(srv.origin, [
        `GET /2015-01-01/inbound_shipments?merchants_ref=${ref} HTTP/1.1`,
        "Host: x",
        `Authorization: ${mAuth}`,
      ]);
      expect(r.status, ref).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({
        code: "validation_failed",
        details: [{ path: "/query/merchants_ref", message: expect.stringContaining("reserved characters") }],
      });
    }
    const encoded = await rawRequest(srv.origin, [
      "GET /2015-01-01/inbound_shipments?merchants_ref=PO%401 HTTP/1.1",
      "Host: x",
      `Authorization: ${mAuth}`,
    ]);
    expect(encoded.status).toBe(200);
  });

  it("the method FOO is 400 validation_failed in the error shape", async () => {
    const r = await unchanged(() =>
      rawRequest(srv.origin, ["FOO /2015-01-01/inbound_shipments HTTP/1.1", "Host: x", `Authorization: ${mAuth}`]),
    );
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({
      success: false,
      code: "validation_failed",
      details: [{ path: "/method" }],
    });
  });

  it("a duplicate JSON key is 400 naming it, at any depth, also when written with an escape", async () => {
    const cases: [string, string][] = [
      [
        '{"merchants_ref":"PO-A","merchants_ref":"PO-B","sender_name":"S","products":[{"merchants_id":"SKU-1","qty":1}]}',
        "/body/merchants_ref",
      ],
      [
        '{"merchants_ref":"PO-A","sender_name":"S","products":[{"merchants_id":"SKU-1","qty":1,"qty":1000}]}',
        "/body/products/0/qty",
      ],
      [
        '{"merchants_ref":"PO-A","merchants\\u005fref":"PO-B","sender_name":"S","products":[{"merchants_id":"SKU-1","qty":1}]}',
        "/body/merchants_ref",
      ],
      [
        '{"merchants_ref":"PO:A","sender_name":"S","sender_name":"a\\u003ab","products":[{"merchants_id":"SKU-1","qty":1}]}',
        "/body/sender_name",
      ],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await unchanged(() => create(body)), 400, "validation_failed", [path]);
      expect(error.details.find((d) => d.path === path)!.code).toBe("duplicate_key");
    }
  });

  it("colons and escapes inside strings are not mistaken for duplicate keys", async () => {
    const body =
      '{"merchants_ref":"PO:1:2","sender_name":"a\\u003ab: \\"c\\":d","products":[{"merchants_id":"SKU:1","name":"x\\":y","qty":1}]}';
    const r = await create(body);
    expect(r.response.status).toBe(201);
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
    "?%s=1 is 400 like any unknown query parameter",
    async (key) => {
      const error = expectError(await send(`/inbound_shipments?${key}=1`), 400, "validation_failed");
      expect(error.details.map((d) => d.path)).toContain(`/query/${key}`);
    },
  );

  it("two Authorization headers are 400, not the first one silently", async () => {
    const r = await unchanged(() =>
      rawRequest(
        srv.origin,
        [
          "POST /2015-01-01/inbound_shipments/_create HTTP/1.1",
          "Host: x",
          `Authorization: ${mAuth}`,
          `Authorization: ${wAuth}`,
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(validJson())}`,
        ],
        validJson(),
      ),
    );
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({
      code: "validation_failed",
      details: [{ path: "/headers/authorization", code: "duplicate" }],
    });
  });

  it("Idempotency-Key details use one path, /headers/idempotency-key, for a bad key and a reused one", async () => {
    const bad = await send("/inbound_shipments/_create", {
      method: "POST",
      body: validJson(),
      headers: { "Idempotency-Key": "k".repeat(256) },
    });
    expectError(bad, 400, "validation_failed", ["/headers/idempotency-key"]);
    await send("/inbound_shipments/_create", {
      method: "POST",
      body: validJson(),
      headers: { "Idempotency-Key": "one-key" },
    });
    const reused = await send("/inbound_shipments/_create", {
      method: "POST",
      body: validJson(),
      headers: { "Idempotency-Key": "one-key" },
    });
    expectError(reused, 422, "idempotency_key_reused", ["/headers/idempotency-key"]);
  });

  it.each([["123"], ['"s"'], ["null"], ["true"]])(
    "the JSON scalar %s is valid JSON, refused as the wrong type",
    async (body) => {
      const error = expectError(await unchanged(() => create(body)), 400, "validation_failed", ["/body"]);
      expect(error.message).not.toMatch(/not valid JSON/);
      expect(error.details.some((d) => d.code === "json")).toBe(false);
    },
  );

  it("an empty body where one is required is 400 naming /body (found by the fuzzer: was a 500 on modify)", async () => {
    for (const [path, type] of [
      [`/inbound_shipments/${shipmentId}`, "application/json"],
      [`/inbound_shipments/${shipmentId}`, null],
      ["/inbound_shipments/_create", "application/json"],
    ] as const) {
      const r = await unchanged(() => send(path, { method: "POST", body: "", type }));
      expect(expectError(r, 400, "validation_failed", ["/body"]).details[0]!.code).toBe("required");
    }
  });

  it("malformed JSON is still called that", async () => {
    const error = expectError(await unchanged(() => create("{")), 400, "validation_failed", ["/body"]);
    expect(error.details[0]!.code).toBe("json");
  });

  it.each(["utf8", "UTF-8", "us-ascii", '"utf-8"'])("charset=%s is accepted", async (charset) => {
    expect((await create(validJson(), `application/json; charset=${charset}`)).response.status).toBe(201);
  });

  it.each(["utf-16", "utf-16le", "latin1", "iso-8859-1"])(
    "charset=%s is 415 unsupported_media_type",
    async (charset) => {
      expectError(
        await unchanged(() => create(validJson(), `application/json; charset=${charset}`)),
        415,
        "unsupported_media_type",
      );
    },
  );

  it("Content-Length: 5000000 with a tiny body is 413 at once, without waiting for the bytes", async () => {
    const r = await unchanged(() =>
      rawRequest(
        srv.origin,
        [
          "POST /2015-01-01/inbound_shipments/_create HTTP/1.1",
          "Host: x",
          `Authorization: ${mAuth}`,
          "Content-Type: application/json",
          "Content-Length: 5000000",
        ],
        "{}",
        3_000,
      ),
    );
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ code: "payload_too_large" });
    expect(r.ms).toBeLessThan(2_000);
  });

  it("arrivedQty cannot go above 1,000,000 (what qty allows), so a line can always be reconciled", async () => {
    const id = await createShipment(m);
    expect((await arrive(w, id, [{ merchants_id: "SKU-1001", change: 1_000_000 }])).response.status).toBe(200);
    const r = await unchanged(() => arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }]));
    expect(expectError(r, 409, "conflict", ["/body/arrivals/0/change"]).details[0]!.code).toBe("above_maximum");
    expect((await getShipment(m, id)).products[0]!.arrivedQty).toBe(1_000_000);
  });

  it("merchant ids are case-insensitive: Other.Example and other.example are one tenant", async () => {
    const first = await provisionAccount(srv.handle.db, "merchant", "Other.Example", "other-secret-1");
    expect(first).toMatchObject({ created: true, id: "other.example" });
    expect(await provisionAccount(srv.handle.db, "merchant", "other.example", "other-secret-2")).toMatchObject({
      created: false,
    });
    const upper = srv.client("M-OTHER.EXAMPLE", "other-secret-2");
    const lower = srv.client("M-other.example", "other-secret-2");
    const id = await createShipment(upper);
    expect((await getShipment(lower, id)).id).toBe(id);
    const rows = (await srv.snapshot()).merchants as { id: string }[];
    expect(rows.filter((r) => r.id.toLowerCase() === "other.example").map((r) => r.id)).toEqual(["other.example"]);
  });
});
