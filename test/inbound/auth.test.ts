// Authentication and roles: who may call what, and what a refused caller sees.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import {
  announcement,
  arrive,
  createShipment,
  expectError,
  getShipment,
  moveTo,
  expectUnchanged,
  basicAuth,
} from "../helpers/fixtures.ts";

type S = components["schemas"];
type Result = { response: Response; error?: unknown };

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
let shipmentId: string;

const MERCHANT = "auth-shop.example.com";
const MERCHANT_SECRET = "merchant-secret-auth";
const OPERATOR = "auth-wh.example.com";
const OPERATOR_SECRET = "operator-secret-auth";
const basic = basicAuth;

// Many failed sign-ins come from one address here; the login throttle has its own tests (test/http/password-guessing.test.ts).
useTestServer(
  async (s) => {
    srv = s;
    await provisionAccount(srv.handle.db, "merchant", MERCHANT, MERCHANT_SECRET);
    await provisionAccount(srv.handle.db, "operator", OPERATOR, OPERATOR_SECRET);
    m = srv.client(`M-${MERCHANT}`, MERCHANT_SECRET);
    w = srv.client(`W-${OPERATOR}`, OPERATOR_SECRET);
    shipmentId = await createShipment(m);
  },
  { loginLimits: { perAddress: 0, perAccount: 0, windowMs: 60_000 } },
);

const unchanged = <R>(request: () => Promise<R>) => expectUnchanged(srv, request);

/** 401 with a Basic challenge naming a realm. */
function expectUnauthorized(result: Result): void {
  expectError(result, 401, "unauthorized");
  expect(result.response.headers.get("www-authenticate")).toMatch(/^Basic realm="[^"]+"/);
}

async function raw(
  path: string,
  headers: Record<string, string>,
  init: { method?: string; body?: string; origin?: boolean } = {},
) {
  const response = await fetch((init.origin ? srv.origin : srv.baseUrl) + path, {
    method: init.method ?? "GET",
    headers,
    body: init.body,
  });
  const text = await response.text();
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { response, error, text };
}

/** Every inbound operation, called by `c` against `id` with a valid body. */
type OperationName = "create" | "list" | "get" | "modify" | "confirm" | "delete" | "postDelete" | "arrivals" | "status";

function everyOperation(c: LogisticsClient, id: string): Record<OperationName, () => Promise<Result>> {
  const p = { params: { path: { shipment_id: id } } };
  return {
    create: () => c.POST("/inbound_shipments/_create", { body: announcement() }),
    list: () => c.GET("/inbound_shipments"),
    get: () => c.GET("/inbound_shipments/{shipment_id}", p),
    modify: () => c.POST("/inbound_shipments/{shipment_id}", { ...p, body: { expected_at_wh: "2016-01-20" } }),
    confirm: () => c.POST("/inbound_shipments/{shipment_id}/_confirm", p),
    delete: () => c.DELETE("/inbound_shipments/{shipment_id}", p),
    postDelete: () => c.POST("/inbound_shipments/{shipment_id}/_delete", p),
    arrivals: () =>
      c.POST("/inbound_shipments/{shipment_id}/arrivals", {
        ...p,
        body: { arrivals: [{ merchants_id: "SKU-1001", change: 1 }] },
      }),
    status: () => c.POST("/inbound_shipments/{shipment_id}/_status", { ...p, body: { status: "en_route" } }),
  };
}
const ALL: OperationName[] = [
  "create",
  "list",
  "get",
  "modify",
  "confirm",
  "delete",
  "postDelete",
  "arrivals",
  "status",
];

describe("missing or wrong credentials are 401 with a WWW-Authenticate challenge, and change nothing", () => {
  const refused: [string, () => LogisticsClient][] = [
    ["no Authorization header", () => srv.client()],
    ["the wrong secret", () => srv.client(`M-${MERCHANT}`, "not-the-secret")],
    ["an empty secret", () => srv.client(`M-${MERCHANT}`, "")],
    ["an operator's secret with the merchant's name", () => srv.client(`M-${MERCHANT}`, OPERATOR_SECRET)],
    ["an unknown merchant", () => srv.client("M-nobody.example.com", MERCHANT_SECRET)],
    ["an unknown operator", () => srv.client("W-nobody.example.com", OPERATOR_SECRET)],
    ["a merchant id without the M- prefix", () => srv.client(MERCHANT, MERCHANT_SECRET)],
    ["a merchant id with the W- prefix", () => srv.client(`W-${MERCHANT}`, MERCHANT_SECRET)],
    ["an operator id with the M- prefix", () => srv.client(`M-${OPERATOR}`, OPERATOR_SECRET)],
    ["a lower-case m- prefix", () => srv.client(`m-${MERCHANT}`, MERCHANT_SECRET)],
    ["another prefix", () => srv.client(`X-${MERCHANT}`, MERCHANT_SECRET)],
  ];
  it.each(refused)("%s: every operation is 401", async (_name, make) => {
    const c = make();
    const ops = everyOperation(c, shipmentId);
    await unchanged(async () => {
      for (const name of ALL) expectUnauthorized(await ops[name]());
    });
  });

  const headers: [string, string][] = [
    ["Basic with text that is not base64", "Basic not*base64!"],
    [
      "Basic with base64 of text without a colon",
      `Basic ${Buffer.from(`M-${MERCHANT}${MERCHANT_SECRET}`).toString("base64")}`,
    ],
    [
      "Basic with base64 of a colon first (no username)",
      `Basic ${Buffer.from(`:${MERCHANT_SECRET}`).toString("base64")}`,
    ],
    ["Basic with nothing after it", "Basic "],
    ["Basic with two tokens", `${basic(`M-${MERCHANT}`, MERCHANT_SECRET)} extra`],
    ["the Bearer scheme", `Bearer ${Buffer.from(`M-${MERCHANT}:${MERCHANT_SECRET}`).toString("base64")}`],
    ["the Digest scheme", 'Digest username="M-auth-shop.example.com"'],
    ["credentials without a scheme", Buffer.from(`M-${MERCHANT}:${MERCHANT_SECRET}`).toString("base64")],
    ["an empty header", ""],
  ];
  it.each(headers)("%s is 401", async (_name, authorization) => {
    const r = await unchanged(() =>
      raw(
        "/inbound_shipments/_create",
        { Authorization: authorization, "Content-Type": "application/json" },
        { method: "POST", body: JSON.stringify(announcement()) },
      ),
    );
    expectUnauthorized(r);
    expectUnauthorized(await raw(`/inbound_shipments/${shipmentId}`, { Authorization: authorization }));
  });

  it("the correct Basic header, sent raw, works (so the 401s above are about the header)", async () => {
    const r = await raw(`/inbound_shipments/${shipmentId}`, { Authorization: basic(`M-${MERCHANT}`, MERCHANT_SECRET) });
    expect(r.response.status).toBe(200);
    expect(r.error).toMatchObject({ id: shipmentId });
  });

  it("the scheme name is case-insensitive (RFC 7235)", async () => {
    const r = await raw(`/inbound_shipments/${shipmentId}`, {
      Authorization: basic(`M-${MERCHANT}`, MERCHANT_SECRET).replace("Basic", "basic"),
    });
    expect(r.response.status).toBe(200);
  });

  it("credentials are checked before the body: a bad body without credentials is 401, not 400", async () => {
    const r = await raw(
      "/inbound_shipments/_create",
      { "Content-Type": "application/json" },
      { method: "POST", body: "{not json" },
    );
    expectUnauthorized(r);
  });

  it("a 401 never says whether the account exists", async () => {
    const unknown = await srv.client("M-nobody.example.com", "whatever-secret").GET("/inbound_shipments");
    const wrong = await srv.client(`M-${MERCHANT}`, "whatever-secret").GET("/inbound_shipments");
    expectUnauthorized(unknown);
    expectUnauthorized(wrong);
    expect((unknown.error as S["Error"]).message).toBe((wrong.error as S["Error"]).message);
  });
});

describe("roles: a valid principal outside its role is 403 access_denied", () => {
  it("a merchant may not record arrivals, and nothing is stored", async () => {
    const r = await unchanged(() => arrive(m, shipmentId, [{ merchants_id: "SKU-1001", change: 1 }]));
    expectError(r, 403, "access_denied");
  });

  it("a merchant may not record arrivals even on its own shipment with an Idempotency-Key", async () => {
    const r = await unchanged(() =>
      m.POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: shipmentId }, header: { "Idempotency-Key": "merchant-arrival-1" } },
        body: { arrivals: [{ merchants_id: "SKU-1001", change: 1 }] },
      }),
    );
    expectError(r, 403, "access_denied");
  });

  it.each(["en_route", "arrived_at_warehouse", "cancelled"] as const)(
    "a merchant may not move its shipment to %s",
    async (to) => {
      const r = await unchanged(() => moveTo(m, shipmentId, { status: to }));
      expectError(r, 403, "access_denied");
    },
  );

  it("a merchant may not move its shipment to problem", async () => {
    const r = await unchanged(() =>
      moveTo(m, shipmentId, { status: "problem", problems: [{ type: "damaged", description: "wet" }] }),
    );
    expectError(r, 403, "access_denied");
  });

  it.each(["create", "modify", "confirm", "delete", "postDelete", "list"] as const)(
    "an operator may not call the merchant operation %s",
    async (name) => {
      const r = await unchanged(() => everyOperation(w, shipmentId)[name]());
      expectError(r, 403, "access_denied");
    },
  );

  it("the shipment is still initial and unchanged after the refused calls", async () => {
    const s = await getShipment(m, shipmentId);
    expect(s).toMatchObject({ status: "initial", expected_at_wh: null });
    expect(s.products.every((l) => l.arrivedQty === 0 && l.arrivals.length === 0)).toBe(true);
  });

  it("an operator may GET any merchant's shipment", async () => {
    const other = await srv.merchant();
    const otherId = await createShipment(other, announcement({ merchants_ref: "PO-OTHER" }));
    for (const id of [shipmentId, otherId]) {
      const { data, response } = await w.GET("/inbound_shipments/{shipment_id}", {
        params: { path: { shipment_id: id } },
      });
      expect(response.status).toBe(200);
      expect(data!.id).toBe(id);
    }
    expect((await getShipment(w, otherId)).merchants_ref).toBe("PO-OTHER");
  });

  it("an operator may record arrivals and move any merchant's shipment (the role check lets the right role through)", async () => {
    const id = await createShipment(m, announcement({ merchants_ref: "PO-WAREHOUSE" }));
    expect((await moveTo(w, id, { status: "en_route" })).response.status).toBe(200);
    expect((await arrive(w, id, [{ merchants_id: "SKU-1001", change: 2 }])).response.status).toBe(200);
    expect((await getShipment(m, id)).products[0]!.arrivedQty).toBe(2);
  });

  it("a 403 is decided before the body is validated: a merchant sending a bad arrivals body is 403, not 400", async () => {
    const r = await unchanged(() =>
      m.POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: shipmentId } },
        body: { arrivals: [] } as never,
      }),
    );
    expectError(r, 403, "access_denied");
  });
});
