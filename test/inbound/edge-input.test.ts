// Inputs found by trying the API as a new user would: never a 500, never a silently ignored field.
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { basicAuth, createShipment, expectUnchanged, getShipment } from "../helpers/fixtures.ts";

let srv: TestServer;
let m: LogisticsClient;
let auth: string;
useTestServer(async (s) => {
  srv = s;
  await (
    await import("../../server/accounts/domain.ts")
  ).provisionAccount(srv.handle.db, "merchant", "edge.example.com", "edge-secret-1");
  m = srv.client("M-edge.example.com", "edge-secret-1");
  auth = basicAuth("M-edge.example.com", "edge-secret-1");
});

async function send(path: string, init: { method?: string; body?: string } = {}) {
  const res = await fetch(srv.baseUrl + path, {
    method: init.method ?? "GET",
    headers: { Authorization: auth, ...(init.body !== undefined && { "Content-Type": "application/json" }) },
    body: init.body,
  });
  return {
    status: res.status,
    body: (await res.json()) as { code?: string; details?: { path: string; code?: string }[] },
  };
}

describe("edge input", () => {
  it("a NUL character anywhere in the body is a 400 naming each field, not a database error", async () => {
    const body = '{"merchants_ref":"PO\\u0000-1","sender_name":"A","products":[{"merchants_id":"S\\u0000","qty":1}]}';
    const res = await expectUnchanged(srv, () => send("/inbound_shipments/_create", { method: "POST", body }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.details!.map((d) => [d.path, d.code])).toEqual([
      ["/body/merchants_ref", "nul"],
      ["/body/products/0/merchants_id", "nul"],
    ]);
  });

  it("codes, names and GTIN-less lines with quotes, backslashes, braces, commas and the word NULL are stored as sent", async () => {
    // A create sends each column of its lines as one array (catalogue/db.ts, inbound/db.ts): text that an
    // array literal would mangle must come back exactly.
    const tricky = ['He said "hi"', "back\\slash", "{braces}", "a,b", "NULL", "", " spaced ", "ÄÖ 🙂"];
    const products = tricky.map((name, i) => ({
      merchants_id: `C${i}${tricky[(i + 1) % tricky.length]}Z`,
      name,
      qty: i + 1,
    }));
    const id = await createShipment(m, { merchants_ref: "PO-ARRAY", sender_name: 'Quote "Oy"', products });
    const s = await getShipment(m, id);
    expect(s.sender_name).toBe('Quote "Oy"');
    expect(s.products.map((p) => [p.product.merchants_id, p.product.name, p.product.gtin, p.qty])).toEqual(
      products.map((p) => [p.merchants_id, p.name, "", p.qty]),
    );
  });

  it("a NUL character in a query parameter is a 400", async () => {
    const res = await send("/inbound_shipments?merchants_ref=a%00b");
    expect(res.status).toBe(400);
    expect(res.body.details![0]).toMatchObject({ path: "/query/merchants_ref", code: "nul" });
  });

  it("a body sent to an operation that takes none is refused, not ignored; {} is accepted", async () => {
    const id = await createShipment(m);
    const refused = await expectUnchanged(srv, () =>
      send(`/inbound_shipments/${id}/_confirm`, { method: "POST", body: '{"status":"confirmed"}' }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.details![0]).toMatchObject({ path: "/body", code: "not_allowed" });
    expect((await getShipment(m, id)).status).toBe("initial");
    const deleted = await expectUnchanged(srv, () =>
      send(`/inbound_shipments/${id}`, { method: "DELETE", body: '{"force":true}' }),
    );
    expect(deleted.status).toBe(400);
    expect((await send(`/inbound_shipments/${id}/_confirm`, { method: "POST", body: "{}" })).status).toBe(200);
  });

  it("updated_since may be written unencoded with Z, or with an encoded +00:00", async () => {
    await createShipment(m);
    for (const q of ["2016-01-18T08:17:55Z", "2016-01-18T08:17:55%2B00:00"]) {
      const res = await send(`/inbound_shipments?updated_since=${q}`);
      expect(res.status, q).toBe(200);
    }
    const bad = await send("/inbound_shipments?updated_since=2016-13-45T00:00:00Z");
    expect(bad.status).toBe(400);
    expect(bad.body.details![0]).toMatchObject({ path: "/query/updated_since", code: "format" });
  });
});
