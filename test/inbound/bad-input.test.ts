// Bad input to every inbound shipment operation: each is refused with the exact status, error code
// and offending field, carries a request id, and leaves every stored row as it was.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";
import {
  announcement,
  arrive,
  createShipment,
  expectError,
  getShipment,
  expectUnchanged,
  basicAuth,
} from "../helpers/fixtures.ts";

type S = components["schemas"];
type Result = { response: Response; error?: unknown };

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
let merchantAuth: string;
let operatorAuth: string;
/** A shipment in `initial` that every modify case targets. */
let shipmentId: string;
/** A shipment with one arrival, in `processing`, for the arrivals and _status cases. */
let receivingId: string;

const basic = basicAuth;

useTestServer(async (s) => {
  srv = s;
  const merchantId = "bad-input-shop.example.com";
  const operatorId = "bad-input-wh.example.com";
  await provisionAccount(srv.handle.db, "merchant", merchantId, "merchant-secret-1");
  await provisionAccount(srv.handle.db, "operator", operatorId, "operator-secret-1");
  m = srv.client(`M-${merchantId}`, "merchant-secret-1");
  w = srv.client(`W-${operatorId}`, "operator-secret-1");
  merchantAuth = basic(`M-${merchantId}`, "merchant-secret-1");
  operatorAuth = basic(`W-${operatorId}`, "operator-secret-1");
  shipmentId = await createShipment(m);
  receivingId = await createShipment(m, announcement({ merchants_ref: "PO-RECEIVING" }));
  expect((await arrive(w, receivingId, [{ merchants_id: "SKU-1001", change: 1 }])).response.status).toBe(200);
});

/** Runs a request that must be refused and asserts that no stored row changed because of it. */
const unchanged = <R>(request: () => Promise<R>) => expectUnchanged(srv, request);

/** expectError plus: request id in body and header, and every given path among details[].path. */

/** A raw request for what the typed client cannot send; the body is parsed as JSON when it is JSON. */
async function raw(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; origin?: boolean } = {},
) {
  const url = (init.origin ? srv.origin : srv.baseUrl) + path;
  const response = await fetch(url, { method: init.method ?? "GET", headers: init.headers, body: init.body });
  const text = await response.text();
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { response, error, text };
}

const json = (auth: string, extra: Record<string, string> = {}) => ({
  Authorization: auth,
  "Content-Type": "application/json",
  ...extra,
});

const line = (overrides: Record<string, unknown> = {}) => ({
  merchants_id: "SKU-9",
  name: "Thing",
  gtin: "",
  qty: 1,
  ...overrides,
});
const withLine = (overrides: Record<string, unknown>) => ({ ...announcement(), products: [line(overrides)] });
const without = (obj: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key));
const many = (n: number) => Array.from({ length: n }, (_, i) => line({ merchants_id: `SKU-${i}` }));

async function create(body: unknown) {
  return m.POST("/inbound_shipments/_create", { body: body as never });
}
async function modify(body: unknown, id = shipmentId) {
  return m.POST("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } }, body: body as never });
}
async function arrivals(body: unknown, id = receivingId) {
  return w.POST("/inbound_shipments/{shipment_id}/arrivals", {
    params: { path: { shipment_id: id } },
    body: body as never,
  });
}
async function status(body: unknown, id = receivingId) {
  return w.POST("/inbound_shipments/{shipment_id}/_status", {
    params: { path: { shipment_id: id } },
    body: body as never,
  });
}
async function list(query: Record<string, unknown>) {
  return m.GET("/inbound_shipments", { params: { query: query as never } });
}

const hourFromNow = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+00:00");

describe("create: bad bodies are 400 validation_failed naming the field, and store nothing", () => {
  const cases: [string, () => unknown, string[]][] = [
    [
      "unknown top-level property expected_at_warehouse",
      () => ({ ...announcement(), expected_at_warehouse: "2016-01-20" }),
      ["/body/expected_at_warehouse"],
    ],
    ["unknown property inside a product line", () => withLine({ quantity: 3 }), ["/body/products/0/quantity"]],
    ['qty as the string "1"', () => withLine({ qty: "1" }), ["/body/products/0/qty"]],
    ["qty 1.5", () => withLine({ qty: 1.5 }), ["/body/products/0/qty"]],
    ["qty 0", () => withLine({ qty: 0 }), ["/body/products/0/qty"]],
    ["qty -1", () => withLine({ qty: -1 }), ["/body/products/0/qty"]],
    ["qty 1000001", () => withLine({ qty: 1_000_001 }), ["/body/products/0/qty"]],
    ["qty null", () => withLine({ qty: null }), ["/body/products/0/qty"]],
    ["products an object, not an array", () => ({ ...announcement(), products: line() }), ["/body/products"]],
    ["products a string", () => ({ ...announcement(), products: "SKU-9" }), ["/body/products"]],
    ["merchants_ref a number", () => ({ ...announcement(), merchants_ref: 42 }), ["/body/merchants_ref"]],
    ["missing merchants_ref", () => without(announcement(), "merchants_ref"), ["/body/merchants_ref"]],
    ["missing sender_name", () => without(announcement(), "sender_name"), ["/body/sender_name"]],
    ["missing products", () => without(announcement(), "products"), ["/body/products"]],
    [
      "a line without merchants_id",
      () => ({ ...announcement(), products: [without(line(), "merchants_id")] }),
      ["/body/products/0/merchants_id"],
    ],
    ["a line without qty", () => ({ ...announcement(), products: [without(line(), "qty")] }), ["/body/products/0/qty"]],
    ["empty products array", () => ({ ...announcement(), products: [] }), ["/body/products"]],
    [
      "merchants_ref of 101 characters",
      () => ({ ...announcement(), merchants_ref: "R".repeat(101) }),
      ["/body/merchants_ref"],
    ],
    ["empty merchants_ref", () => ({ ...announcement(), merchants_ref: "" }), ["/body/merchants_ref"]],
    [
      "sender_name of 201 characters",
      () => ({ ...announcement(), sender_name: "S".repeat(201) }),
      ["/body/sender_name"],
    ],
    ["empty sender_name", () => ({ ...announcement(), sender_name: "" }), ["/body/sender_name"]],
    ["product name of 201 characters", () => withLine({ name: "N".repeat(201) }), ["/body/products/0/name"]],
    [
      "merchants_id of 101 characters",
      () => withLine({ merchants_id: "X".repeat(101) }),
      ["/body/products/0/merchants_id"],
    ],
    [
      "merchants_id with a leading space",
      () => withLine({ merchants_id: " SKU-9" }),
      ["/body/products/0/merchants_id"],
    ],
    ["empty merchants_id", () => withLine({ merchants_id: "" }), ["/body/products/0/merchants_id"]],
    ["501 product lines", () => ({ ...announcement(), products: many(501) }), ["/body/products"]],
    ["GTIN with a wrong check digit", () => withLine({ gtin: "6410405082658" }), ["/body/products/0/gtin"]],
    ["GTIN of 9 digits", () => withLine({ gtin: "123456789" }), ["/body/products/0/gtin"]],
    ["GTIN with letters", () => withLine({ gtin: "64104050826AB" }), ["/body/products/0/gtin"]],
    ["GTIN as a number", () => withLine({ gtin: 6410405082657 }), ["/body/products/0/gtin"]],
    [
      "expected_at_wh 2016-02-30 (no such day)",
      () => ({ ...announcement(), expected_at_wh: "2016-02-30" }),
      ["/body/expected_at_wh"],
    ],
    [
      "expected_at_wh 2016-13-01 (no such month)",
      () => ({ ...announcement(), expected_at_wh: "2016-13-01" }),
      ["/body/expected_at_wh"],
    ],
    [
      "expected_at_wh 20160120 (no dashes)",
      () => ({ ...announcement(), expected_at_wh: "20160120" }),
      ["/body/expected_at_wh"],
    ],
    [
      "expected_at_wh with a time",
      () => ({ ...announcement(), expected_at_wh: "2016-01-20T10:00:00+00:00" }),
      ["/body/expected_at_wh"],
    ],
    ["expected_at_wh null on create", () => ({ ...announcement(), expected_at_wh: null }), ["/body/expected_at_wh"]],
    ["negative purchasePrice", () => withLine({ purchasePrice: -1 }), ["/body/products/0/purchasePrice"]],
    ["purchasePrice with three decimals", () => withLine({ purchasePrice: 1.234 }), ["/body/products/0/purchasePrice"]],
  ];
  it.each(cases)("%s", async (_name, body, paths) => {
    const result = await unchanged(() => create(body()));
    expectError(result, 400, "validation_failed", paths);
  });

  it("the same merchants_id twice in one request is 400 with a detail coded duplicate", async () => {
    const body = announcement({
      products: [
        line({ merchants_id: "SKU-D", qty: 1 }),
        line({ merchants_id: "SKU-E" }),
        line({ merchants_id: "SKU-D", qty: 2 }),
      ] as S["ProductLineInput"][],
    });
    const error = expectError(await unchanged(() => create(body)), 400, "validation_failed", [
      "/body/products/2/merchants_id",
    ]);
    expect(error.details.find((d) => d.path === "/body/products/2/merchants_id")).toMatchObject({ code: "duplicate" });
  });

  it("reports every offending field at once", async () => {
    const body = {
      merchants_ref: "",
      sender_name: "S".repeat(201),
      products: [line({ qty: 0 }), line({ merchants_id: "SKU-2", gtin: "12" })],
    };
    const error = expectError(await unchanged(() => create(body)), 400, "validation_failed", [
      "/body/merchants_ref",
      "/body/sender_name",
      "/body/products/0/qty",
      "/body/products/1/gtin",
    ]);
    expect(error.details.every((d) => typeof d.message === "string" && d.message.length > 0)).toBe(true);
  });

  it("500 lines (the maximum) are accepted, which proves the 501 case is the limit and not the size", async () => {
    const { response } = await create({ ...announcement({ merchants_ref: "PO-500" }), products: many(500) });
    expect(response.status).toBe(201);
  });
});

describe("create: bodies that are not a JSON object", () => {
  it("malformed JSON is 400 validation_failed", async () => {
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", {
        method: "POST",
        headers: json(merchantAuth),
        body: '{"merchants_ref": "PO-1", "sender_name": ',
      }),
    );
    expectError(r, 400, "validation_failed", ["/body"]);
  });

  it("a JSON array is 400 validation_failed", async () => {
    const r = await unchanged(() => create([announcement()]));
    expectError(r, 400, "validation_failed", ["/body"]);
  });

  it("a JSON string is 400 validation_failed", async () => {
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", { method: "POST", headers: json(merchantAuth), body: '"PO-2016-0042"' }),
    );
    expectError(r, 400, "validation_failed", ["/body"]);
  });

  it("JSON null is 400 validation_failed", async () => {
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", { method: "POST", headers: json(merchantAuth), body: "null" }),
    );
    expectError(r, 400, "validation_failed", ["/body"]);
  });

  it("a number is 400 validation_failed", async () => {
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", { method: "POST", headers: json(merchantAuth), body: "42" }),
    );
    expectError(r, 400, "validation_failed", ["/body"]);
  });

  it("no body at all is 400 validation_failed", async () => {
    const r = await unchanged(() => raw("/inbound_shipments/_create", { method: "POST", headers: json(merchantAuth) }));
    expectError(r, 400, "validation_failed");
  });

  it("a valid body sent as text/plain is 415 unsupported_media_type", async () => {
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", {
        method: "POST",
        headers: { Authorization: merchantAuth, "Content-Type": "text/plain" },
        body: JSON.stringify(announcement()),
      }),
    );
    expectError(r, 415, "unsupported_media_type");
  });

  it("a form-encoded body is 415 unsupported_media_type", async () => {
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", {
        method: "POST",
        headers: { Authorization: merchantAuth, "Content-Type": "application/x-www-form-urlencoded" },
        body: "merchants_ref=PO-1&sender_name=x",
      }),
    );
    expectError(r, 415, "unsupported_media_type");
  });

  it("JSON in a charset other than UTF-8 is 415 unsupported_media_type", async () => {
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", {
        method: "POST",
        headers: { Authorization: merchantAuth, "Content-Type": "application/json; charset=latin1" },
        body: JSON.stringify(announcement()),
      }),
    );
    expectError(r, 415, "unsupported_media_type");
  });

  it("a body over 1 MB is 413 payload_too_large", async () => {
    const body = JSON.stringify({ ...announcement(), sender_name: "x".repeat(1_100_000) });
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", { method: "POST", headers: json(merchantAuth), body }),
    );
    expectError(r, 413, "payload_too_large");
  });
});

describe("modify: bad bodies are 400 and change nothing", () => {
  const cases: [string, () => unknown, string[]][] = [
    ["empty body {}", () => ({}), ["/body"]],
    [
      "both products and products_all",
      () => ({ products: [line()], products_all: [line({ merchants_id: "SKU-8" })] }),
      ["/body/products_all"],
    ],
    [
      "unknown property expected_at_warehouse",
      () => ({ expected_at_warehouse: "2016-01-20" }),
      ["/body/expected_at_warehouse"],
    ],
    ["status is not modifiable here", () => ({ status: "confirmed" }), ["/body/status"]],
    ["unknown property in a merged line", () => ({ products: [line({ quantity: 2 })] }), ["/body/products/0/quantity"]],
    ["empty products", () => ({ products: [] }), ["/body/products"]],
    ["empty products_all", () => ({ products_all: [] }), ["/body/products_all"]],
    ["products not an array", () => ({ products: line() }), ["/body/products"]],
    ["qty 0 in products", () => ({ products: [line({ qty: 0 })] }), ["/body/products/0/qty"]],
    ['qty "3" in products_all', () => ({ products_all: [line({ qty: "3" })] }), ["/body/products_all/0/qty"]],
    ["a line without qty", () => ({ products: [without(line(), "qty")] }), ["/body/products/0/qty"]],
    [
      "duplicate merchants_id in products",
      () => ({ products: [line(), line({ qty: 2 })] }),
      ["/body/products/1/merchants_id"],
    ],
    [
      "duplicate merchants_id in products_all",
      () => ({ products_all: [line(), line({ qty: 2 })] }),
      ["/body/products_all/1/merchants_id"],
    ],
    [
      "GTIN with a wrong check digit",
      () => ({ products: [line({ gtin: "6410405082658" })] }),
      ["/body/products/0/gtin"],
    ],
    ["501 lines in products_all", () => ({ products_all: many(501) }), ["/body/products_all"]],
    ["expected_at_wh 2016-02-30", () => ({ expected_at_wh: "2016-02-30" }), ["/body/expected_at_wh"]],
    ["expected_at_wh 2016-13-01", () => ({ expected_at_wh: "2016-13-01" }), ["/body/expected_at_wh"]],
    ["expected_at_wh 20160120", () => ({ expected_at_wh: "20160120" }), ["/body/expected_at_wh"]],
    ["empty merchants_ref", () => ({ merchants_ref: "" }), ["/body/merchants_ref"]],
    ["sender_name of 201 characters", () => ({ sender_name: "S".repeat(201) }), ["/body/sender_name"]],
    ["merchants_ref null", () => ({ merchants_ref: null }), ["/body/merchants_ref"]],
  ];
  it.each(cases)("%s", async (_name, body, paths) => {
    const result = await unchanged(() => modify(body()));
    expectError(result, 400, "validation_failed", paths);
  });

  it("malformed JSON is 400 validation_failed", async () => {
    const r = await unchanged(() =>
      raw(`/inbound_shipments/${shipmentId}`, {
        method: "POST",
        headers: json(merchantAuth),
        body: "{expected_at_wh: 2016-01-20}",
      }),
    );
    expectError(r, 400, "validation_failed", ["/body"]);
  });

  it("a JSON array is 400 validation_failed", async () => {
    expectError(await unchanged(() => modify([{ expected_at_wh: "2016-01-20" }])), 400, "validation_failed", ["/body"]);
  });

  it("text/plain is 415 unsupported_media_type", async () => {
    const r = await unchanged(() =>
      raw(`/inbound_shipments/${shipmentId}`, {
        method: "POST",
        headers: { Authorization: merchantAuth, "Content-Type": "text/plain" },
        body: '{"expected_at_wh":"2016-01-20"}',
      }),
    );
    expectError(r, 415, "unsupported_media_type");
  });

  it("the shipment still reads as created after all of the above", async () => {
    const s = await getShipment(m, shipmentId);
    expect(s).toMatchObject({
      merchants_ref: "PO-2016-0042",
      sender_name: "Acme Supplies Oy",
      status: "initial",
      expected_at_wh: null,
    });
    expect(s.products.map((l) => [l.product.merchants_id, l.qty])).toEqual([
      ["SKU-1001", 10],
      ["SKU-1002", 5],
    ]);
  });
});

describe("arrivals: bad bodies are 400 and record nothing", () => {
  const arrival = (overrides: Record<string, unknown> = {}) => ({ merchants_id: "SKU-1001", change: 1, ...overrides });
  const cases: [string, () => unknown, string[]][] = [
    ["change 0", () => ({ arrivals: [arrival({ change: 0 })] }), ["/body/arrivals/0/change"]],
    ['change "1"', () => ({ arrivals: [arrival({ change: "1" })] }), ["/body/arrivals/0/change"]],
    ["change 1.5", () => ({ arrivals: [arrival({ change: 1.5 })] }), ["/body/arrivals/0/change"]],
    ["change 1000001", () => ({ arrivals: [arrival({ change: 1_000_001 })] }), ["/body/arrivals/0/change"]],
    ["change -1000001", () => ({ arrivals: [arrival({ change: -1_000_001 })] }), ["/body/arrivals/0/change"]],
    ["a line without change", () => ({ arrivals: [without(arrival(), "change")] }), ["/body/arrivals/0/change"]],
    [
      "a line without merchants_id",
      () => ({ arrivals: [without(arrival(), "merchants_id")] }),
      ["/body/arrivals/0/merchants_id"],
    ],
    [
      "qty instead of change",
      () => ({ arrivals: [{ merchants_id: "SKU-1001", qty: 1 }] }),
      ["/body/arrivals/0/qty", "/body/arrivals/0/change"],
    ],
    [
      "unknown top-level property",
      () => ({ arrivals: [arrival()], timestamp: "2016-01-20T09:12:01+00:00" }),
      ["/body/timestamp"],
    ],
    ["missing arrivals", () => ({ ts: "2016-01-20T09:12:01+00:00" }), ["/body/arrivals"]],
    ["empty arrivals", () => ({ arrivals: [] }), ["/body/arrivals"]],
    ["arrivals not an array", () => ({ arrivals: arrival() }), ["/body/arrivals"]],
    [
      "duplicate merchants_id",
      () => ({ arrivals: [arrival(), arrival({ change: 2 })] }),
      ["/body/arrivals/1/merchants_id"],
    ],
    [
      "GTIN with a wrong check digit on a new product",
      () => ({ arrivals: [arrival({ merchants_id: "SKU-NEW", gtin: "6410405082658" })] }),
      ["/body/arrivals/0/gtin"],
    ],
    ["ts an hour in the future", () => ({ ts: hourFromNow(), arrivals: [arrival()] }), ["/body/ts"]],
    ["ts with a space instead of T", () => ({ ts: "2016-01-20 09:12:01+00:00", arrivals: [arrival()] }), ["/body/ts"]],
    ["ts without a UTC offset", () => ({ ts: "2016-01-20T09:12:01", arrivals: [arrival()] }), ["/body/ts"]],
    ["ts as a date only", () => ({ ts: "2016-01-20", arrivals: [arrival()] }), ["/body/ts"]],
    [
      "ts on a day that does not exist",
      () => ({ ts: "2016-02-30T09:12:01+00:00", arrivals: [arrival()] }),
      ["/body/ts"],
    ],
    ["ts at hour 25", () => ({ ts: "2016-01-20T25:00:00+00:00", arrivals: [arrival()] }), ["/body/ts"]],
    ["ts as epoch seconds", () => ({ ts: 1453281121, arrivals: [arrival()] }), ["/body/ts"]],
  ];
  it.each(cases)("%s", async (_name, body, paths) => {
    const result = await unchanged(() => arrivals(body()));
    expectError(result, 400, "validation_failed", paths);
  });

  it("malformed JSON is 400 validation_failed", async () => {
    const r = await unchanged(() =>
      raw(`/inbound_shipments/${receivingId}/arrivals`, {
        method: "POST",
        headers: json(operatorAuth),
        body: '{"arrivals": [{"merchants_id": "SKU-1001", "change": 1}',
      }),
    );
    expectError(r, 400, "validation_failed", ["/body"]);
  });

  it("text/plain is 415 unsupported_media_type", async () => {
    const r = await unchanged(() =>
      raw(`/inbound_shipments/${receivingId}/arrivals`, {
        method: "POST",
        headers: { Authorization: operatorAuth, "Content-Type": "text/plain" },
        body: '{"arrivals":[{"merchants_id":"SKU-1001","change":1}]}',
      }),
    );
    expectError(r, 415, "unsupported_media_type");
  });

  it("a body over 1 MB is 413 payload_too_large", async () => {
    const body = JSON.stringify({ arrivals: [{ merchants_id: "SKU-1001", change: 1, name: "x".repeat(1_100_000) }] });
    const r = await unchanged(() =>
      raw(`/inbound_shipments/${receivingId}/arrivals`, { method: "POST", headers: json(operatorAuth), body }),
    );
    expectError(r, 413, "payload_too_large");
  });

  it("the line still shows only the one arrival recorded before", async () => {
    const s = await getShipment(m, receivingId);
    expect(s.products.find((l) => l.product.merchants_id === "SKU-1001")).toMatchObject({ arrivedQty: 1 });
    expect(s.products.map((l) => l.product.merchants_id)).toEqual(["SKU-1001", "SKU-1002"]);
  });
});

describe("_status: bad bodies are 400 and move nothing", () => {
  const problem = { type: "damaged", merchants_id: "SKU-1001", description: "Box wet" };
  const cases: [string, () => unknown, string[]][] = [
    ["an unknown status", () => ({ status: "lost_at_sea" }), ["/body/status"]],
    ["a merchant status (deleted)", () => ({ status: "deleted" }), ["/body/status"]],
    ["a status that is not a target (initial)", () => ({ status: "initial" }), ["/body/status"]],
    ["missing status", () => ({ problems: [problem] }), ["/body/status"]],
    ["status null", () => ({ status: null }), ["/body/status"]],
    ["problem without problems", () => ({ status: "problem" }), ["/body/problems"]],
    ["problem with an empty problems list", () => ({ status: "problem", problems: [] }), ["/body/problems"]],
    ["problems on a non-problem status", () => ({ status: "processed", problems: [problem] }), ["/body/problems"]],
    [
      "a problem of an unknown type",
      () => ({ status: "problem", problems: [{ ...problem, type: "lost" }] }),
      ["/body/problems/0/type"],
    ],
    [
      "a problem without description",
      () => ({ status: "problem", problems: [without(problem, "description")] }),
      ["/body/problems/0/description"],
    ],
    [
      "a problem with an empty description",
      () => ({ status: "problem", problems: [{ ...problem, description: "" }] }),
      ["/body/problems/0/description"],
    ],
    [
      "a problem description of 1001 characters",
      () => ({ status: "problem", problems: [{ ...problem, description: "d".repeat(1001) }] }),
      ["/body/problems/0/description"],
    ],
    [
      "an unknown property in a problem",
      () => ({ status: "problem", problems: [{ ...problem, severity: "high" }] }),
      ["/body/problems/0/severity"],
    ],
    ["an unknown top-level property", () => ({ status: "processed", reason: "done" }), ["/body/reason"]],
  ];
  it.each(cases)("%s", async (_name, body, paths) => {
    const result = await unchanged(() => status(body()));
    expectError(result, 400, "validation_failed", paths);
  });

  it("malformed JSON is 400 validation_failed", async () => {
    const r = await unchanged(() =>
      raw(`/inbound_shipments/${receivingId}/_status`, {
        method: "POST",
        headers: json(operatorAuth),
        body: "{'status': 'processed'}",
      }),
    );
    expectError(r, 400, "validation_failed", ["/body"]);
  });

  it("the shipment is still processing after all of the above", async () => {
    expect((await getShipment(m, receivingId)).status).toBe("processing");
  });
});

describe("list: bad query parameters are 400 naming the parameter", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["limit 0", { limit: 0 }, "/query/limit"],
    ["limit 101", { limit: 101 }, "/query/limit"],
    ["limit abc", { limit: "abc" }, "/query/limit"],
    ["limit 1.5", { limit: 1.5 }, "/query/limit"],
    ["limit -1", { limit: -1 }, "/query/limit"],
    ["an unknown status value", { status: ["lost_at_sea"] }, "/query/status"],
    ["an unknown status among good ones", { status: ["initial", "bogus"] }, "/query/status"],
    ["an unknown query parameter", { colour: "blue" }, "/query/colour"],
    ["a typo of a parameter (update_since)", { update_since: "2016-01-20T00:00:00+00:00" }, "/query/update_since"],
    ["a garbage cursor (right alphabet)", { cursor: "Z2FyYmFnZQ" }, "/query/cursor"],
    ["a garbage cursor (wrong alphabet)", { cursor: "!!not a cursor!!" }, "/query/cursor"],
    ["a cursor of 201 characters", { cursor: "a".repeat(201) }, "/query/cursor"],
    ["updated_since not a timestamp", { updated_since: "yesterday" }, "/query/updated_since"],
    ["updated_since a date without time", { updated_since: "2016-01-20" }, "/query/updated_since"],
    ["merchants_ref of 101 characters", { merchants_ref: "R".repeat(101) }, "/query/merchants_ref"],
  ];
  it.each(cases)("%s", async (_name, query, path) => {
    const result = await unchanged(() => list(query));
    const error = expectError(result, 400, "validation_failed");
    expect(
      error.details.map((d) => d.path).some((p) => p === path || p.startsWith(`${path}/`)),
      JSON.stringify(error.details),
    ).toBe(true);
  });

  it("a cursor made from a well-formed but foreign value is refused, not trusted", async () => {
    // base64url of "1453105075000.zzzzzzzzzzzzzzzzzzzzzzzz": right shape, id not hex.
    const cursor = Buffer.from("1453105075000.zzzzzzzzzzzzzzzzzzzzzzzz").toString("base64url");
    expectError(await list({ cursor }), 400, "validation_failed", ["/query/cursor"]);
  });
});

describe("a path id that is not 24 lowercase hex characters is 400 on every operation", () => {
  const badIds = [
    "abc",
    "569C9D3AB7E4F1A2C3D4E5F6",
    "569c9d3ab7e4f1a2c3d4e5f",
    "569c9d3ab7e4f1a2c3d4e5f6a",
    "569c9d3ab7e4f1a2c3d4e5g6",
  ];
  const idPath = /^\/(path|params)\/shipment_id$/;
  const expectIdError = (r: Result) => {
    const error = expectError(r, 400, "validation_failed");
    expect(
      error.details.some((d) => idPath.test(d.path)),
      JSON.stringify(error.details),
    ).toBe(true);
  };
  it.each(badIds)("GET /inbound_shipments/%s", async (id) => {
    expectIdError(await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } }));
  });
  it.each(badIds)("modify, confirm, delete, _delete, arrivals and _status on %s", async (id) => {
    const p = { params: { path: { shipment_id: id } } };
    await unchanged(async () => {
      expectIdError(await m.POST("/inbound_shipments/{shipment_id}", { ...p, body: { sender_name: "x" } }));
      expectIdError(await m.POST("/inbound_shipments/{shipment_id}/_confirm", p));
      expectIdError(await m.DELETE("/inbound_shipments/{shipment_id}", p));
      expectIdError(await m.POST("/inbound_shipments/{shipment_id}/_delete", p));
      expectIdError(
        await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
          ...p,
          body: { arrivals: [{ merchants_id: "SKU-1001", change: 1 }] },
        }),
      );
      expectIdError(await w.POST("/inbound_shipments/{shipment_id}/_status", { ...p, body: { status: "en_route" } }));
    });
  });
  it("a well-formed id that does not exist is 404 not_found", async () => {
    const p = { params: { path: { shipment_id: "0000000000000000000000ff" } } };
    expectError(await m.GET("/inbound_shipments/{shipment_id}", p), 404, "not_found");
    await unchanged(async () => {
      expectError(
        await m.POST("/inbound_shipments/{shipment_id}", { ...p, body: { sender_name: "x" } }),
        404,
        "not_found",
      );
      expectError(
        await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
          ...p,
          body: { arrivals: [{ merchants_id: "SKU-1001", change: 1 }] },
        }),
        404,
        "not_found",
      );
    });
  });
});

describe("routing: methods, unknown routes and the base path", () => {
  it("PUT /inbound_shipments/_create is 405 method_not_allowed with an Allow header", async () => {
    const r = await unchanged(() =>
      raw("/inbound_shipments/_create", {
        method: "PUT",
        headers: json(merchantAuth),
        body: JSON.stringify(announcement()),
      }),
    );
    expectError(r, 405, "method_not_allowed");
    const allow = r.response.headers.get("allow");
    expect(allow).toBeTruthy();
    expect(allow!.toUpperCase().split(/\s*,\s*/)).toContain("POST");
    expect(allow!.toUpperCase()).not.toContain("PUT");
  });

  it("PATCH on a shipment is 405 and Allow lists GET, POST and DELETE", async () => {
    const r = await unchanged(() =>
      raw(`/inbound_shipments/${shipmentId}`, {
        method: "PATCH",
        headers: json(merchantAuth),
        body: '{"sender_name":"x"}',
      }),
    );
    expectError(r, 405, "method_not_allowed");
    const allow = r.response.headers
      .get("allow")!
      .toUpperCase()
      .split(/\s*,\s*/);
    expect(allow).toEqual(expect.arrayContaining(["GET", "POST", "DELETE"]));
    expect(allow).not.toContain("PATCH");
  });

  it("GET on the arrivals operation is 405 with Allow: POST", async () => {
    const r = await raw(`/inbound_shipments/${receivingId}/arrivals`, { headers: { Authorization: operatorAuth } });
    expectError(r, 405, "method_not_allowed");
    expect(
      r.response.headers
        .get("allow")!
        .toUpperCase()
        .split(/\s*,\s*/),
    ).toEqual(["POST"]);
  });

  it("an unknown route under /2015-01-01 is 404 not_found", async () => {
    for (const path of ["/nothing_here", `/inbound_shipments/${shipmentId}/_explode`, "/inbound_shipment"]) {
      const r = await unchanged(() => raw(path, { method: "POST", headers: json(merchantAuth), body: "{}" }));
      expectError(r, 404, "not_found");
    }
    expectError(await raw("/nothing_here", { headers: { Authorization: merchantAuth } }), 404, "not_found");
  });

  it("POST /inbound_shipments/_create outside the /2015-01-01 prefix is 404 and stores nothing", async () => {
    for (const path of [
      "/inbound_shipments/_create",
      "/2015-01-02/inbound_shipments/_create",
      "/2015-01-01x/inbound_shipments/_create",
    ]) {
      const bad = { ...announcement(), expected_at_warehouse: "2016-01-20", products: [line({ qty: 0 })] };
      for (const body of [announcement(), bad]) {
        const r = await unchanged(() =>
          raw(path, { method: "POST", headers: json(merchantAuth), body: JSON.stringify(body), origin: true }),
        );
        expectError(r, 404, "not_found");
      }
    }
  });
});

describe("request ids", () => {
  it("every error response carries request_id equal to the X-Request-Id header", async () => {
    const results: Result[] = [
      await create({}),
      await raw("/inbound_shipments/_create", { method: "POST", headers: json(merchantAuth), body: "{" }),
      await raw("/inbound_shipments/_create", { method: "POST" }),
      await raw("/nothing_here", { headers: { Authorization: merchantAuth } }),
      await raw("/inbound_shipments/_create", { method: "PUT", headers: { Authorization: merchantAuth } }),
      await m.GET("/inbound_shipments/{shipment_id}", {
        params: { path: { shipment_id: "0000000000000000000000ff" } },
      }),
      await w.POST("/inbound_shipments/_create", { body: announcement() }),
    ];
    const ids = results.map((r) => {
      const body = r.error as S["Error"];
      expect(body.success).toBe(false);
      expect(body.request_id).toEqual(expect.any(String));
      expect(r.response.headers.get("x-request-id")).toBe(body.request_id);
      return body.request_id;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a valid X-Request-Id given by the caller is echoed in the header and the error body", async () => {
    const given = "caller-req.2016-01-20:0042";
    const r = await raw("/inbound_shipments/_create", {
      method: "POST",
      headers: json(merchantAuth, { "X-Request-Id": given }),
      body: "[]",
    });
    expectError(r, 400, "validation_failed");
    expect(r.response.headers.get("x-request-id")).toBe(given);
    expect((r.error as S["Error"]).request_id).toBe(given);
    const ok = await raw("/inbound_shipments", { headers: { Authorization: merchantAuth, "X-Request-Id": given } });
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get("x-request-id")).toBe(given);
  });

  it("an X-Request-Id that is not a safe token is replaced, not echoed", async () => {
    for (const given of ["has spaces in it", "x".repeat(200), "<script>"]) {
      const r = await raw("/inbound_shipments/_create", {
        method: "POST",
        headers: json(merchantAuth, { "X-Request-Id": given }),
        body: "[]",
      });
      const header = r.response.headers.get("x-request-id");
      expect(header).toBeTruthy();
      expect(header).not.toBe(given);
      expect((r.error as S["Error"]).request_id).toBe(header);
    }
  });
});

describe("an unexpected failure reveals nothing internal", () => {
  it("is a 500 unknown with a request id, without stack trace, SQL or error text", async () => {
    const broken = await startTestServer();
    try {
      const client = await broken.merchant("broken.example.com");
      // Warm the credential cache so that the failure happens in the operation, not in authentication.
      expect((await client.GET("/inbound_shipments")).response.status).toBe(200);
      // Close the database connection under the running server. (Destroying the pool, not dropping the
      // database: close() below drops it once the pool's connections are really gone.)
      await broken.handle.db.destroy();
      const results: Result[] = [
        await client.POST("/inbound_shipments/_create", { body: announcement() }),
        await client.GET("/inbound_shipments"),
      ];
      for (const r of results) {
        const error = expectError(r, 500, "unknown");
        expect(error.details).toEqual([]);
        const text = JSON.stringify(r.error);
        expect(text).not.toMatch(
          /Error:|\bat .*\.(ts|js):\d+|node_modules|\/work\/|select |insert |from "|kysely|pglite|postgres|destroyed|ECONN/i,
        );
        expect(Object.keys(r.error as object).sort()).toEqual(["code", "details", "message", "request_id", "success"]);
      }
    } finally {
      await broken.close();
    }
  });
});
