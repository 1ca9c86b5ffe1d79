// The requests the mock and the server must answer alike (parity.test.ts): valid ones, invalid bodies, invalid
// queries, an unknown id, missing or wrong credentials. Each row is sent as written to both.
import { expect } from "vitest";

export interface Target {
  name: "mock" | "server";
  origin: string;
  baseUrl: string;
  /** An id the target does not know; empty on the mock, which is asked with `Prefer: code=404` instead. */
  unknownId: string;
  /** The ids the target's own creates returned. */
  ids: { shipment?: string };
  /** Basic credentials (default: the table's merchant). */
  auth?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface Row {
  name?: string;
  method: string;
  /** Below the base path; `{shipment}` and `{unknown}` are the target's ids. `//` at the start: off the base path. */
  path: string;
  /** "valid": a shipment to create; a string: the raw body; an object: sent as JSON. */
  body?: string | object;
  headers?: Record<string, string>;
  /** No Authorization header. */
  anonymous?: boolean;
}

export interface ParityRow extends Row {
  name: string;
  expect: {
    status: number;
    code?: string;
    details?: { path: string; code?: string }[];
    check?: (body: Record<string, unknown>) => void;
  };
}

const MERCHANT = `Basic ${Buffer.from("M-parity.example.com:secret-parity.example.com").toString("base64")}`;
/** The warehouse's W-... credentials (parity.test.ts makes the operator on the server). */
export const OPERATOR = `Basic ${Buffer.from("W-parity-wh:secret-parity-wh").toString("base64")}`;
const asOperator = { authorization: OPERATOR };
const SHIPMENT = {
  merchants_ref: "PO-PARITY-1",
  sender_name: "Acme Supplies Oy",
  products: [{ merchants_id: "SKU-1", name: "Blue T-shirt M", qty: 10 }],
};

export async function paritySent(t: Target, row: Row): Promise<Answer> {
  const unknown = row.path.includes("{unknown}");
  const path = row.path
    .replace("{shipment}", t.ids.shipment ?? "")
    .replace("{unknown}", t.unknownId || t.ids.shipment!);
  const url = path.startsWith("//") ? t.origin + path.slice(1) : t.baseUrl + path;
  const body =
    row.body === "valid"
      ? JSON.stringify(SHIPMENT)
      : typeof row.body === "object"
        ? JSON.stringify(row.body)
        : row.body;
  const res = await fetch(url, {
    method: row.method,
    headers: {
      origin: "https://shop.example.com",
      ...(!row.anonymous && { authorization: t.auth ?? MERCHANT }),
      ...(body !== undefined && { "content-type": "application/json" }),
      ...(unknown && t.name === "mock" && { prefer: "code=404" }),
      ...row.headers,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const invalid = (details: { path: string; code?: string }[]) => ({ status: 400, code: "validation_failed", details });
const detail = (path: string, code: string, message: string) => ({ path, code, message });

export const PARITY_TABLE: ParityRow[] = [
  // Valid requests.
  {
    name: "create: 201 with the new shipment's status",
    method: "POST",
    path: "/inbound_shipments/_create",
    body: "valid",
    expect: { status: 201, check: (b) => expect(b.status).toBe("initial") },
  },
  { name: "read the created shipment", method: "GET", path: "/inbound_shipments/{shipment}", expect: { status: 200 } },
  {
    name: "modify: 200 with status",
    method: "POST",
    path: "/inbound_shipments/{shipment}",
    body: { sender_name: "Acme Supplies Ltd" },
    expect: { status: 200, check: (b) => expect(b.status).toBe("initial") },
  },
  { name: "list shipments", method: "GET", path: "/inbound_shipments", expect: { status: 200 } },
  {
    name: "shipping options for 20780 are for 20780",
    method: "GET",
    path: "/shipping_options?postalcode=20780&country=FI",
    expect: {
      status: 200,
      check: (b) => expect((b.facts as Record<string, unknown>)["customer.postalcode"]).toBe("20780"),
    },
  },
  // Lockers and counters (issue 51): the spec's Kaarina and Helsinki examples are the demo directory's points, with
  // their kind: a Posti parcel locker, Posti and Matkahuolto counters.
  {
    name: "shipping options for 20780: each pickup point's kind",
    method: "GET",
    path: "/shipping_options?postalcode=20780&country=FI",
    expect: {
      status: 200,
      check: (b) => {
        const points = (b.options as { pickup: { pickup_points: Record<string, { kind: string }> } }).pickup
          .pickup_points;
        expect(points["8712b5457606ca2e4ba6f518"]!.kind).toBe("counter");
        expect(points["d7cad6002ff96859c30c5c20"]!.kind).toBe("counter");
        expect(points["5128c02151fe5a6eef7b3338"]!.kind).toBe("locker");
      },
    },
  },
  {
    name: "the pickup point lookup for 00100: each point's kind",
    method: "GET",
    path: "/pickup_points/lookup?postalcode=00100&country=FI&limit=2",
    expect: {
      status: 200,
      check: (b) => {
        const points = b.pickup_points as { id: string; kind: string }[];
        expect(points.find((p) => p.id === "5a1f0c2e9b8d7a6f5e4d3c2b")!.kind).toBe("counter"); // K-Market Kamppi
        for (const p of points) expect(["locker", "counter", "unknown"]).toContain(p.kind);
      },
    },
  },
  // Near means near (issue 56): the spec's Ivalo and unknown postal code examples are the server's answers on the
  // demo directory (parity.test.ts loads it and prices home and pickup for the table's merchant).
  ...(
    [
      ["99800", "pickup_points_too_far"],
      ["99999", "unknown_postal_code"],
    ] as const
  ).flatMap(([postalcode, reason]): ParityRow[] => [
    {
      name: `shipping options for ${postalcode}: pickup unavailable, ${reason}`,
      method: "GET",
      path: `/shipping_options?postalcode=${postalcode}&country=FI`,
      expect: {
        status: 200,
        check: (b) => {
          const options = b.options as Record<string, Record<string, unknown>>;
          expect(options.pickup).toEqual({ available: false, reason });
          expect(options.home!.available).toBe(true);
        },
      },
    },
    {
      name: `the pickup point lookup for ${postalcode}: no points, ${reason}`,
      method: "GET",
      path: `/pickup_points/lookup?postalcode=${postalcode}&country=FI`,
      expect: {
        status: 200,
        check: (b) => expect(b).toMatchObject({ postalcode, pickup_points: [], reason }),
      },
    },
  ]),
  { name: "the events feed", method: "GET", path: "/events", expect: { status: 200 } },
  {
    // A cursor naming an event the target's history does not have at its position: after a restore on the server.
    name: "an events cursor from another history",
    method: "GET",
    path: `/events?cursor=${Buffer.from("e900000.5a41e2f3a4b5c6d7e8f9a0ff").toString("base64url")}`,
    expect: {
      status: 409,
      code: "cursor_from_other_history",
      check: (b) => expect(b.restart_cursor).toEqual(expect.any(String)),
    },
  },
  {
    name: "the pickup point branches (matched as itself, not as a pickup point id)",
    method: "GET",
    path: "/pickup_points/branches",
    expect: { status: 200, check: (b) => expect(Array.isArray(b.items)).toBe(true) },
  },
  // Invalid bodies: 400 naming each problem, never the mock's 422, with or without an Idempotency-Key.
  ...[{}, { "idempotency-key": "parity-1" } as Record<string, string>].map((headers): ParityRow => ({
    name: `create with a typo and qty 0${headers["idempotency-key"] ? ", with an Idempotency-Key" : ""}`,
    method: "POST",
    path: "/inbound_shipments/_create",
    headers,
    body: {
      ...SHIPMENT,
      expected_at_warehouse: "2026-12-01",
      products: [{ merchants_id: "SKU-1", name: "x", qty: 0 }],
    },
    expect: invalid([
      detail("/body/expected_at_warehouse", "additionalProperties", "must NOT have additional properties"),
      detail("/body/products/0/qty", "minimum", "must be >= 1"),
    ]),
  })),
  {
    // The service's own value rules run with the schema check, on the mock too (docs/mock.md says so).
    name: "create with one merchants_id twice and a GTIN whose check digit is wrong",
    method: "POST",
    path: "/inbound_shipments/_create",
    body: {
      ...SHIPMENT,
      products: [
        { merchants_id: "SKU-1", name: "x", gtin: "6410405082658", qty: 1 },
        { merchants_id: "SKU-1", name: "y", qty: 2 },
      ],
    },
    expect: invalid([
      detail("/body/products/0/gtin", "gtin", "GTIN check digit is wrong"),
      detail("/body/products/1/merchants_id", "duplicate", "merchants_id SKU-1 appears more than once"),
    ]),
  },
  {
    name: "create with malformed JSON",
    method: "POST",
    path: "/inbound_shipments/_create",
    body: '{"merchants_ref": ',
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(b.details).toMatchObject([{ path: "/body", code: "json" }]),
    },
  },
  {
    name: "create without a body",
    method: "POST",
    path: "/inbound_shipments/_create",
    expect: invalid([detail("/body", "required", "a JSON request body is required")]),
  },
  {
    name: "create as text/plain",
    method: "POST",
    path: "/inbound_shipments/_create",
    body: "valid",
    headers: { "content-type": "text/plain" },
    expect: { status: 415, code: "unsupported_media_type" },
  },
  {
    name: "webhook endpoint without a url",
    method: "POST",
    path: "/webhook_endpoints/_create",
    body: { events: ["inbound_shipment.items_arrived"] },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(JSON.stringify(b.details)).toContain("url"),
    },
  },
  {
    name: "a webhook URL with a user name and password: its own reason, beside an unknown field",
    method: "POST",
    path: "/webhook_endpoints/_create",
    body: { url: "https://user:pw@erp.shop.example/x", event_types: ["webhook.test"], colour: "red" },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) =>
        expect(b.details).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ path: "/body/url", code: "credentials_in_url" }),
            expect.objectContaining({ path: "/body/colour", code: "additionalProperties" }),
          ]),
        ),
    },
  },
  {
    name: "a merchant recording arrivals (operators only)",
    method: "POST",
    path: "/inbound_shipments/{shipment}/arrivals",
    body: { arrivals: [{ merchants_id: "SKU-1", change: 1 }] },
    expect: { status: 403, code: "access_denied" },
  },
  // Invalid queries.
  {
    name: "weight=1e3",
    method: "GET",
    path: "/shipping_options?postalcode=20780&weight=1e3",
    expect: invalid([
      detail(
        "/query/weight",
        "type",
        "must be a decimal number such as 350 or 12.5 (no exponent, hex, Infinity or blank)",
      ),
    ]),
  },
  {
    name: "a postal code Finland cannot have",
    method: "GET",
    path: "/shipping_options?postalcode=2078&country=FI",
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(b.details).toMatchObject([{ path: "/query/postalcode" }]),
    },
  },
  {
    name: "an order with one product twice, a price in tenths of a cent and an unknown field: one 400 lists all three",
    method: "POST",
    path: "/orders/_create",
    body: {
      merchants_ref: "ORDER-PARITY-1",
      customer: { postalcode: "20780", country: "FI" },
      products: [
        { merchants_id: "SKU-1", qty: 1, unit_price: 9.9, weight_g: 100 },
        { merchants_id: "SKU-1", qty: 1, unit_price: 9.999, weight_g: 100 },
      ],
      shipping: "fast",
    },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) =>
        expect((b.details as { path: string }[]).map((d) => d.path).sort()).toEqual([
          "/body/products/1/merchants_id",
          "/body/products/1/unit_price",
          "/body/shipping",
        ]),
    },
  },
  {
    name: "an order for a postal code Finland cannot have",
    method: "POST",
    path: "/orders/_create",
    body: {
      merchants_ref: "ORDER-PARITY-2",
      customer: { postalcode: "ABCDE", country: "FI" },
      products: [{ merchants_id: "SKU-1", qty: 1, unit_price: 9.9, weight_g: 100 }],
    },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(b.details).toMatchObject([{ path: "/body/customer/postalcode", code: "pattern" }]),
    },
  },
  {
    name: "the pickup point lookup for a postal code Finland cannot have",
    method: "GET",
    path: "/pickup_points/lookup?postalcode=ABC12&country=FI",
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(b.details).toMatchObject([{ path: "/query/postalcode", code: "pattern" }]),
    },
  },
  {
    name: "a publishable key for an origin with the scheme's default port",
    method: "POST",
    path: "/publishable_keys/_create",
    body: { origins: ["https://shop.example.com:443"] },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(b.details).toMatchObject([{ path: "/body/origins/0", code: "origin" }]),
    },
  },
  {
    name: "a Shopify callback token with pickup_rates over 10",
    method: "POST",
    path: "/shopify/carrier_service_tokens/_create",
    body: { pickup_rates: 11 },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(b.details).toMatchObject([{ path: "/body/pickup_rates", code: "maximum" }]),
    },
  },
  {
    name: "a Shopify rate request without destination and items (no credentials: the URL's token is the credential)",
    method: "POST",
    path: "/shopify/carrier_service/cs_parityParityParityParityParity00",
    anonymous: true,
    body: { rate: { currency: "EUR" } },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) =>
        expect(b.details).toMatchObject([
          { path: "/body/rate/destination", code: "required" },
          { path: "/body/rate/items", code: "required" },
        ]),
    },
  },
  {
    name: "a delivery dates preview in a time zone nobody knows",
    method: "POST",
    path: "/merchant/delivery_dates/_preview",
    body: {
      time_zone: "Europe/Turku",
      delivery_times: { home: { handling_days: 0, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" } },
    },
    expect: invalid([detail("/body/time_zone", "format", "not a known IANA time zone")]),
  },
  {
    name: "limit=0",
    method: "GET",
    path: "/inbound_shipments?limit=0",
    expect: { status: 400, code: "validation_failed" },
  },
  {
    name: "an unknown query parameter",
    method: "GET",
    path: "/inbound_shipments?colour=blue",
    expect: { status: 400, code: "validation_failed" },
  },
  {
    name: "an unknown query parameter of the pickup point branches",
    method: "GET",
    path: "/pickup_points/branches?country=FI",
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) =>
        expect(b.details).toEqual([{ path: "/query/country", message: "Unknown query parameter 'country'" }]),
    },
  },
  {
    name: "a cursor the service never returned",
    method: "GET",
    path: "/inbound_shipments?cursor=bm90LWEtY3Vyc29y",
    expect: invalid([detail("/query/cursor", "cursor", "not a cursor this service returned")]),
  },
  // Ids.
  {
    name: "an unknown shipment id (the mock: Prefer: code=404)",
    method: "GET",
    path: "/inbound_shipments/{unknown}",
    expect: { status: 404, code: "not_found" },
  },
  {
    name: "an unknown webhook delivery (the mock: Prefer: code=404)",
    method: "GET",
    path: "/webhook_deliveries/{unknown}",
    expect: { status: 404, code: "not_found" },
  },
  {
    name: "a webhook delivery id that is not an id",
    method: "GET",
    path: "/webhook_deliveries/not-an-id",
    expect: { status: 400, code: "validation_failed" },
  },
  {
    name: "an id that is not an id",
    method: "GET",
    path: "/inbound_shipments/not-an-id",
    expect: { status: 400, code: "validation_failed" },
  },
  {
    name: "removing an unknown portal user (the mock: Prefer: code=404)",
    method: "POST",
    path: "/portal_users/{unknown}/_delete",
    expect: { status: 404, code: "not_found" },
  },
  {
    name: "a portal user id that is not an id",
    method: "POST",
    path: "/portal_users/not-an-id/_reset_password",
    body: { password: "temporary-password" },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect((b.details as { path: string }[]).map((d) => d.path)).toContain("/params/user_id"),
    },
  },
  {
    name: "a portal user's role that is not a role",
    method: "POST",
    path: "/portal_users/0123456789abcdef01234567",
    body: { role: "owner" },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(b.details).toMatchObject([{ path: "/body/role", code: "enum" }]),
    },
  },
  {
    name: "changing one's own portal password with Basic credentials (a session's operation)",
    method: "POST",
    path: "/portal_sessions/current/_change_password",
    body: { current_password: "a-password", new_password: "another-password" },
    expect: { status: 401, code: "unauthorized" },
  },
  // The warehouse's operations: merchants refused, bad queries and bodies refused alike.
  {
    name: "a merchant listing what is coming to the warehouse (the warehouse's only)",
    method: "GET",
    path: "/warehouse/inbound_shipments",
    expect: { status: 403, code: "access_denied" },
  },
  {
    name: "a merchant looking up a scanned code",
    method: "GET",
    path: "/warehouse/inbound_shipments/_lookup?code=PO-1",
    expect: { status: 403, code: "access_denied" },
  },
  {
    name: "the warehouse's list with a date that is no calendar date",
    method: "GET",
    path: "/warehouse/inbound_shipments?expected_from=2026-02-30",
    headers: asOperator,
    expect: invalid([detail("/query/expected_from", "format", 'must match format "date"')]),
  },
  {
    name: "the warehouse's list with a range that ends before it starts",
    method: "GET",
    path: "/warehouse/inbound_shipments?expected_from=2026-12-02&expected_to=2026-12-01",
    headers: asOperator,
    expect: invalid([detail("/query/expected_to", "range", "before expected_from")]),
  },
  {
    name: "a lookup without a code",
    method: "GET",
    path: "/warehouse/inbound_shipments/_lookup",
    headers: asOperator,
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(JSON.stringify(b.details)).toContain("code"),
    },
  },
  {
    name: "a warehouse user with a short password and an unknown role",
    method: "POST",
    path: "/warehouse_users/_create",
    headers: asOperator,
    body: { email: "kim@warehouse.example.com", name: "Kim", password: "short", role: "boss" },
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) =>
        expect((b.details as { path: string }[]).map((d) => d.path).sort()).toEqual(["/body/password", "/body/role"]),
    },
  },
  {
    name: "a merchant creating a warehouse user",
    method: "POST",
    path: "/warehouse_users/_create",
    body: { email: "kim@warehouse.example.com", name: "Kim", password: "long-enough-password", role: "receiver" },
    expect: { status: 403, code: "access_denied" },
  },
  {
    name: "signing in at a station without a password",
    method: "POST",
    path: "/station_sessions/_create",
    anonymous: true,
    body: { email: "kim@warehouse.example.com" },
    expect: {
      status: 400,
      code: "validation_failed",
      details: [detail("/body/password", "required", "must have required property 'password'")],
    },
  },
  {
    name: "the station session with Basic credentials (a station session's operation)",
    method: "GET",
    path: "/station_sessions/current",
    headers: asOperator,
    expect: { status: 401, code: "unauthorized" },
  },
  {
    name: "a label on paper the service does not print",
    method: "GET",
    path: "/inbound_shipments/{shipment}/label?size=a5",
    expect: {
      status: 400,
      code: "validation_failed",
      check: (b) => expect(JSON.stringify(b.details)).toContain("/query/size"),
    },
  },
  {
    name: "the label of an unknown shipment (the mock: Prefer: code=404)",
    method: "GET",
    path: "/inbound_shipments/{unknown}/label",
    expect: { status: 404, code: "not_found" },
  },
  // Credentials and addresses.
  {
    name: "no credentials",
    method: "GET",
    path: "/inbound_shipments",
    anonymous: true,
    expect: { status: 401, code: "unauthorized" },
  },
  {
    name: "a bearer token instead of Basic",
    method: "GET",
    path: "/inbound_shipments",
    headers: { authorization: "Bearer abc" },
    expect: { status: 401, code: "unauthorized" },
  },
  {
    name: "a path without the version segment",
    method: "GET",
    path: "//inbound_shipments",
    expect: {
      status: 404,
      code: "not_found",
      check: (b) => expect(b.message).toContain("/2015-01-01/inbound_shipments"),
    },
  },
  {
    name: "DELETE on a list",
    method: "DELETE",
    path: "/inbound_shipments",
    expect: { status: 405, code: "method_not_allowed" },
  },
];
