// Contract test: every inbound shipment operation of spec/openapi.yaml, successes and failures, driven
// through Prism in proxy mode in front of the real server. Prism validates each request and response
// against the spec; a response that violates it fails the test with Prism's violations.
//
// Two proxies run (see prism.ts for the measured behaviour):
// - strict (`--errors`): every request the spec allows. A response violation becomes Prism's 500
//   application/problem+json; any `sl-violations` header (even a warning) fails the test.
// - lenient (no `--errors`): only for requests Prism itself judges invalid (unknown body property, query
//   parameter out of range, no credentials). Prism with `--errors` answers those itself (422/401
//   application/problem+json) without forwarding, which each such case also asserts. Through the lenient
//   proxy they reach the server; `sl-violations` must then name exactly the expected request violation
//   and nothing about the response.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { announcement } from "../helpers/fixtures.ts";
import { contractHarness } from "./harness.ts";

type S = components["schemas"];

/** The statuses each inbound operation must have been seen answering through Prism. */
const REQUIRED: Record<string, number[]> = {
  createInboundShipment: [201, 400, 401, 403, 422],
  listInboundShipments: [200, 400],
  getInboundShipment: [200, 404],
  getInboundStatusHistory: [200, 404],
  modifyInboundShipment: [200, 409],
  deleteInboundShipment: [200, 409],
  deleteInboundShipmentByPost: [200, 409],
  confirmInboundShipment: [200, 409],
  recordInboundArrivals: [200, 403, 409],
  changeInboundShipmentStatus: [200, 409],
  getInboundShipmentLabel: [200, 400, 403, 404],
};

// The implemented operations under this prefix, from the registry: a new one fails the coverage check below.
const h = contractHarness(["/inbound_shipments"]);
const { conforms, fails, refusedByPrism, account } = h;
beforeAll(() => h.start());
afterAll(() => h.stop());

const path = (shipment_id: string) => ({ params: { path: { shipment_id } } });

async function create(m: LogisticsClient, body = announcement()): Promise<string> {
  const r = conforms(await m.POST("/inbound_shipments/_create", { body }), 201);
  expect(r.data).toMatchObject({ success: true, status: "initial" });
  return r.data!.shipment_id;
}

async function arrive(w: LogisticsClient, id: string, arrivals: S["ArrivalLineInput"][], ts?: string) {
  return w.POST("/inbound_shipments/{shipment_id}/arrivals", { ...path(id), body: { arrivals, ...(ts && { ts }) } });
}

async function move(w: LogisticsClient, id: string, body: S["InboundStatusChange"]) {
  return w.POST("/inbound_shipments/{shipment_id}/_status", { ...path(id), body });
}

describe("inbound shipments conform to spec/openapi.yaml through Prism", () => {
  it("createInboundShipment: 201, idempotent retry, 422 reused key, 400 duplicate line, 401 wrong secret, 403 operator", async () => {
    const m = await account("merchant");
    const w = await account("operator");
    const key = `contract-create-${Date.now()}`;
    const idem = { params: { header: { "Idempotency-Key": key } } };

    const first = conforms(await m.strict.POST("/inbound_shipments/_create", { ...idem, body: announcement() }), 201);
    expect(first.data).toMatchObject({ success: true, status: "initial" });
    const retry = conforms(await m.strict.POST("/inbound_shipments/_create", { ...idem, body: announcement() }), 201);
    expect(retry.data!.shipment_id).toBe(first.data!.shipment_id);
    fails(
      await m.strict.POST("/inbound_shipments/_create", { ...idem, body: announcement({ merchants_ref: "PO-OTHER" }) }),
      422,
      "idempotency_key_reused",
    );

    const dup = fails(
      await m.strict.POST("/inbound_shipments/_create", {
        body: announcement({
          products: [
            { merchants_id: "SKU-1", qty: 1 },
            { merchants_id: "SKU-1", qty: 2 },
          ],
        }),
      }),
      400,
      "validation_failed",
    );
    expect(JSON.stringify(dup.details)).toContain("/body/products/1");

    const wrong = await h
      .client("strict", m.username, "not-the-secret")
      .POST("/inbound_shipments/_create", { body: announcement() });
    fails(wrong, 401, "unauthorized");
    expect(wrong.response.headers.get("www-authenticate")).toMatch(/^Basic realm=/);

    fails(await w.strict.POST("/inbound_shipments/_create", { body: announcement() }), 403, "access_denied");
  });

  it("createInboundShipment: 400 unknown property and 401 without credentials (Prism --errors does not forward them)", async () => {
    const m = await account("merchant");
    const typo = { ...announcement(), expected_at_warehouse: "2016-01-20" } as S["InboundShipmentCreate"];

    refusedByPrism(await m.strict.POST("/inbound_shipments/_create", { body: typo }), 422, "expected_at_warehouse");
    const e = fails(
      await m.lenient.POST("/inbound_shipments/_create", { body: typo }),
      { status: 400, requestViolations: ["additionalProperties"] },
      "validation_failed",
    );
    expect(e.details).toContainEqual(expect.objectContaining({ path: "/body/expected_at_warehouse" }));

    refusedByPrism(
      await h.client("strict").POST("/inbound_shipments/_create", { body: announcement() }),
      401,
      "Invalid security scheme used",
    );
    const anon = await h.client("lenient").POST("/inbound_shipments/_create", { body: announcement() });
    fails(anon, { status: 401, requestViolations: [401] }, "unauthorized");
    expect(anon.response.headers.get("www-authenticate")).toMatch(/^Basic realm=/);

    const list = conforms(await m.strict.GET("/inbound_shipments"), 200);
    expect(list.data!.items).toEqual([]);
  });

  it("listInboundShipments: 200 with filters and cursor paging; 400 bad limit", async () => {
    const m = await account("merchant");
    const before = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "+00:00");
    const a = await create(m.strict, announcement({ merchants_ref: "LIST-A" }));
    const b = await create(m.strict, announcement({ merchants_ref: "LIST-B" }));
    const c = await create(m.strict, announcement({ merchants_ref: "LIST-B" }));
    conforms(await m.strict.POST("/inbound_shipments/{shipment_id}/_confirm", path(b)), 200);

    const page1 = conforms(await m.strict.GET("/inbound_shipments", { params: { query: { limit: 2 } } }), 200);
    expect(page1.data!.items).toHaveLength(2);
    expect(page1.data!.next_cursor).toEqual(expect.any(String));
    const page2 = conforms(
      await m.strict.GET("/inbound_shipments", { params: { query: { limit: 2, cursor: page1.data!.next_cursor! } } }),
      200,
    );
    expect(page2.data!.next_cursor).toBeNull();
    expect([...page1.data!.items, ...page2.data!.items].map((s) => s.id).sort()).toEqual([a, b, c].sort());

    const confirmed = conforms(
      await m.strict.GET("/inbound_shipments", { params: { query: { status: ["confirmed"] } } }),
      200,
    );
    expect(confirmed.data!.items.map((s) => s.id)).toEqual([b]);
    const two = conforms(
      await m.strict.GET("/inbound_shipments", {
        params: { query: { status: ["initial", "confirmed"], merchants_ref: "LIST-B" } },
      }),
      200,
    );
    expect(two.data!.items.map((s) => s.id).sort()).toEqual([b, c].sort());
    const since = conforms(
      await m.strict.GET("/inbound_shipments", { params: { query: { updated_since: before } } }),
      200,
    );
    expect(since.data!.items).toHaveLength(3);
    const future = conforms(
      await m.strict.GET("/inbound_shipments", { params: { query: { updated_since: "2999-01-01T00:00:00+00:00" } } }),
      200,
    );
    expect(future.data).toEqual({ items: [], next_cursor: null });

    refusedByPrism(await m.strict.GET("/inbound_shipments", { params: { query: { limit: 0 } } }), 422, "limit");
    const bad = fails(
      await m.lenient.GET("/inbound_shipments", { params: { query: { limit: 0 } } }),
      { status: 400, requestViolations: ["minimum"] },
      "validation_failed",
    );
    expect(bad.details).toContainEqual(expect.objectContaining({ path: "/query/limit" }));
    fails(
      await m.lenient.GET("/inbound_shipments", { params: { query: { limit: 101 } } }),
      { status: 400, requestViolations: ["maximum"] },
      "validation_failed",
    );
  });

  it("getInboundShipment: 200 as merchant and as operator; 404 for another merchant", async () => {
    const m = await account("merchant");
    const other = await account("merchant");
    const w = await account("operator");
    const id = await create(m.strict);

    const mine = conforms(await m.strict.GET("/inbound_shipments/{shipment_id}", path(id)), 200);
    expect(mine.data).toMatchObject({ id, status: "initial", merchants_ref: "PO-2016-0042", problems: [] });
    const op = conforms(await w.strict.GET("/inbound_shipments/{shipment_id}", path(id)), 200);
    expect(op.data).toEqual(mine.data);
    fails(await other.strict.GET("/inbound_shipments/{shipment_id}", path(id)), 404, "not_found");
    fails(await m.strict.GET("/inbound_shipments/{shipment_id}", path("0123456789abcdef01234567")), 404, "not_found");
  });

  it("modifyInboundShipment: 200; 409 cutting below what arrived; 409 after processed", async () => {
    const m = await account("merchant");
    const w = await account("operator");
    const id = await create(m.strict);

    const mod = conforms(
      await m.strict.POST("/inbound_shipments/{shipment_id}", {
        ...path(id),
        body: {
          expected_at_wh: "2016-01-20",
          products: [
            { merchants_id: "SKU-1001", qty: 12 },
            { merchants_id: "SKU-1003", name: "Blue T-shirt XL", qty: 3 },
          ],
        },
      }),
      200,
    );
    expect(mod.data).toMatchObject({ success: true, shipment_id: id });
    conforms(
      await m.strict.POST("/inbound_shipments/{shipment_id}", {
        ...path(id),
        body: { expected_at_wh: null, sender_name: "Acme Oy" },
      }),
      200,
    );

    conforms(await arrive(w.strict, id, [{ merchants_id: "SKU-1001", change: 6 }], "2016-01-20T09:12:01+00:00"), 200);
    const cut = fails(
      await m.strict.POST("/inbound_shipments/{shipment_id}", {
        ...path(id),
        body: { products: [{ merchants_id: "SKU-1001", qty: 5 }] },
      }),
      409,
      "conflict",
    );
    expect(JSON.stringify(cut.details)).toContain("SKU-1001");
    fails(
      await m.strict.POST("/inbound_shipments/{shipment_id}", {
        ...path(id),
        body: { products_all: [{ merchants_id: "SKU-1002", qty: 5 }] },
      }),
      409,
      "conflict",
    );

    // Make the lines match what arrived, then close.
    conforms(
      await m.strict.POST("/inbound_shipments/{shipment_id}", {
        ...path(id),
        body: { products_all: [{ merchants_id: "SKU-1001", qty: 6 }] },
      }),
      200,
    );
    const closed = conforms(await move(w.strict, id, { status: "processed" }), 200);
    expect(closed.data!.status).toBe("processed");
    const late = fails(
      await m.strict.POST("/inbound_shipments/{shipment_id}", { ...path(id), body: { expected_at_wh: "2016-01-21" } }),
      409,
      "invalid_state",
    );
    expect(late.message).toContain("processed");
  });

  it("confirmInboundShipment, deleteInboundShipment, deleteInboundShipmentByPost: 200 and 409", async () => {
    const m = await account("merchant");
    const w = await account("operator");

    const s1 = await create(m.strict);
    const confirmed = conforms(await m.strict.POST("/inbound_shipments/{shipment_id}/_confirm", path(s1)), 200);
    expect(confirmed.data).toMatchObject({ success: true, shipment_id: s1, status: "confirmed" });
    fails(await m.strict.POST("/inbound_shipments/{shipment_id}/_confirm", path(s1)), 409, "invalid_state");
    const deleted = conforms(await m.strict.DELETE("/inbound_shipments/{shipment_id}", path(s1)), 200);
    expect(deleted.data).toMatchObject({ success: true, shipment_id: s1, status: "deleted" });
    fails(await m.strict.DELETE("/inbound_shipments/{shipment_id}", path(s1)), 409, "invalid_state");
    expect(conforms(await m.strict.GET("/inbound_shipments/{shipment_id}", path(s1)), 200).data!.status).toBe(
      "deleted",
    );

    const s2 = await create(m.strict);
    const byPost = conforms(await m.strict.POST("/inbound_shipments/{shipment_id}/_delete", path(s2)), 200);
    expect(byPost.data).toMatchObject({ success: true, shipment_id: s2, status: "deleted" });
    fails(await m.strict.POST("/inbound_shipments/{shipment_id}/_delete", path(s2)), 409, "invalid_state");
    fails(await m.strict.POST("/inbound_shipments/{shipment_id}/_confirm", path(s2)), 409, "invalid_state");

    const s3 = await create(m.strict);
    conforms(await arrive(w.strict, s3, [{ merchants_id: "SKU-1002", change: 1 }]), 200);
    fails(await m.strict.DELETE("/inbound_shipments/{shipment_id}", path(s3)), 409, "invalid_state");
    fails(await m.strict.POST("/inbound_shipments/{shipment_id}/_delete", path(s3)), 409, "invalid_state");
  });

  it("recordInboundArrivals: 200; 403 for a merchant; 409 below zero", async () => {
    const m = await account("merchant");
    const w = await account("operator");
    const id = await create(m.strict);

    const r1 = conforms(
      await arrive(w.strict, id, [{ merchants_id: "SKU-1001", change: 6 }], "2016-01-20T09:12:01+00:00"),
      200,
    );
    expect(r1.data).toMatchObject({ id, status: "processing" });
    const r2 = conforms(
      await arrive(w.strict, id, [
        { merchants_id: "SKU-1001", change: -1 },
        { merchants_id: "SKU-9999", change: 2, name: "Unannounced", gtin: "" },
      ]),
      200,
    );
    const lines = Object.fromEntries(r2.data!.products.map((l) => [l.product.merchants_id, l]));
    expect(lines["SKU-1001"]).toMatchObject({ qty: 10, arrivedQty: 5 });
    expect(lines["SKU-9999"]).toMatchObject({ qty: 0, arrivedQty: 2 });

    fails(await arrive(m.strict, id, [{ merchants_id: "SKU-1001", change: 1 }]), 403, "access_denied");
    const below = fails(await arrive(w.strict, id, [{ merchants_id: "SKU-1002", change: -1 }]), 409, "conflict");
    expect(JSON.stringify(below.details)).toContain("/body/arrivals/0/change");
  });

  it("changeInboundShipmentStatus: 200 for legal moves (closing with a mismatch goes to problem; processed -> problem); 409 illegal", async () => {
    const m = await account("merchant");
    const w = await account("operator");
    const id = await create(m.strict);

    for (const status of ["en_route", "arrived_at_warehouse", "processing"] as const) {
      const r = conforms(await move(w.strict, id, { status }), 200);
      expect(r.data).toMatchObject({ id, status });
    }
    conforms(
      await arrive(w.strict, id, [
        { merchants_id: "SKU-1001", change: 10 },
        { merchants_id: "SKU-1002", change: 3 },
      ]),
      200,
    );

    const short = conforms(await move(w.strict, id, { status: "processed" }), 200);
    expect(short.data!.status).toBe("problem");
    expect(short.data!.problems).toContainEqual(
      expect.objectContaining({ type: "product.missing", merchants_id: "SKU-1002", resolved: false }),
    );

    const accepted = conforms(await move(w.strict, id, { status: "processed" }), 200);
    expect(accepted.data!.status).toBe("processed");

    const damaged = conforms(
      await move(w.strict, id, {
        status: "problem",
        problems: [{ type: "damaged", merchants_id: "SKU-1001", description: "Two boxes wet on arrival" }],
      }),
      200,
    );
    expect(damaged.data!.status).toBe("problem");
    expect(damaged.data!.problems).toContainEqual(expect.objectContaining({ type: "damaged", resolved: false }));
    const resumed = conforms(await move(w.strict, id, { status: "processing" }), 200);
    expect(resumed.data!.problems.every((p) => p.resolved)).toBe(true);

    const fresh = await create(m.strict);
    const illegal = fails(await move(w.strict, fresh, { status: "processing" }), 409, "invalid_state");
    expect(illegal.message).toContain("initial");
    conforms(await move(w.strict, fresh, { status: "cancelled" }), 200);
    fails(await move(w.strict, fresh, { status: "en_route" }), 409, "invalid_state");
    fails(await move(m.strict, fresh, { status: "en_route" }), 403, "access_denied");
  });

  it("getInboundStatusHistory: 200 as merchant and operator, oldest first with who moved it; 404 another merchant's", async () => {
    const m = await account("merchant");
    const other = await account("merchant");
    const w = await account("operator");
    const id = await create(m.strict);
    conforms(await move(w.strict, id, { status: "en_route" }), 200);
    const h1 = conforms(await m.strict.GET("/inbound_shipments/{shipment_id}/status_history", path(id)), 200);
    expect(h1.data!.items.map((i) => [i.from, i.to, i.by])).toEqual([
      [null, "initial", "merchant"],
      ["initial", "en_route", "warehouse"],
    ]);
    conforms(await w.strict.GET("/inbound_shipments/{shipment_id}/status_history", path(id)), 200);
    fails(await other.strict.GET("/inbound_shipments/{shipment_id}/status_history", path(id)), 404, "not_found");
  });

  it("getInboundShipmentLabel: 200 an HTML page, 400 a paper it does not print, 403 the warehouse, 404 another merchant's", async () => {
    const m = await account("merchant");
    const other = await account("merchant");
    const w = await account("operator");
    const id = await create(m.strict);
    const label = (c: LogisticsClient, query: Record<string, string> = {}) =>
      c.GET("/inbound_shipments/{shipment_id}/label", {
        params: { path: { shipment_id: id }, query },
        parseAs: "text",
      });
    const page = conforms(await label(m.strict, { size: "a4", lang: "sv" }), { status: 200, mediaType: "text/html" });
    expect(page.data).toContain("Mottagningsetikett");
    refusedByPrism(await label(m.strict, { size: "a5" }), 422, "size");
    fails(await label(m.lenient, { size: "a5" }), { status: 400, requestViolations: ["enum"] }, "validation_failed", [
      "/query/size",
    ]);
    fails(await label(w.strict), 403, "access_denied");
    fails(await label(other.strict), 404, "not_found");
  });

  it("exercised every inbound operation of the spec, with every required status, and checked every response", () => {
    h.expectComplete(REQUIRED);
  });
});
