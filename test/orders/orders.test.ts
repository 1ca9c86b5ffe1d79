// Orders: create, read, modify, idempotency, tenant isolation, the shared catalogue, and strict input checks.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { announcement, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { createOrder, loadDemo, order, orderLine } from "../helpers/shipping.ts";
import { spec } from "../helpers/spec.ts";

type S = components["schemas"];
const homeExample: S["OrderCreate"] =
  spec.paths["/orders/_create"].post.requestBody.content["application/json"].examples.home.value;
const KAARINA_POINT = "8712b5457606ca2e4ba6f518"; // demo directory, fi.posti

let srv: TestServer;
let m: LogisticsClient;
useTestServer(async (s) => {
  srv = s;
  await loadDemo(srv);
  m = await srv.merchant();
});

const path = (order_id: string) => ({ params: { path: { order_id } } });
async function get(c: LogisticsClient, id: string) {
  const r = await c.GET("/orders/{order_id}", path(id));
  expect(r.response.status).toBe(200);
  return r.data!;
}

describe("orders", () => {
  it("stores the spec's example as sent, with letter_allowed true when omitted and timestamps", async () => {
    const id = await createOrder(m, homeExample);
    const o = await get(m, id);
    expect(o).toEqual({ ...homeExample, id, created_at: expect.any(String), updated_at: expect.any(String) });
    expect(o.created_at).toMatch(/\+00:00$/);
    const plain = await get(m, await createOrder(m, order({ products: [orderLine({ name: undefined })] })));
    expect(plain).toMatchObject({
      tags: [],
      destination: null,
      products: [{ merchants_id: "SKU-1", qty: 1, unit_price: 19.9, weight_g: 210, letter_allowed: true }],
    });
    expect(plain.products[0]).not.toHaveProperty("name");
    expect(plain.products[0]).not.toHaveProperty("dimensions_mm");
  });

  it("keeps several lines in order with dimensions, and a pickup point destination", async () => {
    const lines = [
      orderLine({
        merchants_id: "A",
        qty: 3,
        unit_price: 0.1,
        dimensions_mm: { length: 100, width: 100, height: 100 },
      }),
      orderLine({ merchants_id: "B", qty: 1, unit_price: 1000000, weight_g: 0, letter_allowed: false }),
      orderLine({ merchants_id: "C", qty: 10000, unit_price: 0 }),
    ];
    const o = await get(
      m,
      await createOrder(m, order({ products: lines, destination: KAARINA_POINT, tags: ["vip", "campaign-2016"] })),
    );
    expect(o.products).toEqual(lines.map((l) => ({ letter_allowed: true, ...l })));
    expect(o).toMatchObject({ destination: KAARINA_POINT, tags: ["vip", "campaign-2016"] });
  });

  it("modify replaces each field sent as a whole and keeps the rest; destination null clears it", async () => {
    const id = await createOrder(m, order({ tags: ["a"], destination: "home" }));
    const before = await get(m, id);
    const r = await m.POST("/orders/{order_id}", {
      ...path(id),
      body: { tags: ["b", "c"], destination: KAARINA_POINT },
    });
    expect(r.data).toEqual({ success: true, order_id: id });
    const after = await get(m, id);
    expect(after).toMatchObject({
      tags: ["b", "c"],
      destination: KAARINA_POINT,
      customer: before.customer,
      products: before.products,
      created_at: before.created_at,
    });
    await m.POST("/orders/{order_id}", {
      ...path(id),
      body: {
        products: [orderLine({ merchants_id: "Z", qty: 2 })],
        customer: { postalcode: "00100", country: "FI", address: "Kaivokatu 1" },
        destination: null,
      },
    });
    expect(await get(m, id)).toMatchObject({
      products: [{ merchants_id: "Z", qty: 2 }],
      customer: { postalcode: "00100", country: "FI", address: "Kaivokatu 1" },
      destination: null,
      tags: ["b", "c"],
    });
  });

  it("is idempotent with Idempotency-Key; the same key with another body is 422", async () => {
    const key = { params: { header: { "Idempotency-Key": "order-key-1" } } };
    const first = await m.POST("/orders/_create", { ...key, body: order() });
    const retry = await m.POST("/orders/_create", { ...key, body: order() });
    expect(retry.response.status).toBe(201);
    expect(retry.data).toEqual(first.data);
    expectError(
      await expectUnchanged(srv, () => m.POST("/orders/_create", { ...key, body: order({ merchants_ref: "other" }) })),
      422,
      "idempotency_key_reused",
    );
  });

  it("is the merchant's own: another merchant's order is 404 to read, modify and ask options for; an operator is 403", async () => {
    const id = await createOrder(m);
    const other = await srv.merchant();
    expectError(await other.GET("/orders/{order_id}", path(id)), 404, "not_found");
    expectError(
      await expectUnchanged(srv, () => other.POST("/orders/{order_id}", { ...path(id), body: { tags: ["x"] } })),
      404,
      "not_found",
    );
    expectError(await other.GET("/orders/{order_id}/shipping_options", path(id)), 404, "not_found");
    expectError(await m.GET("/orders/{order_id}", path("0123456789abcdef01234567")), 404, "not_found");
    const w = await srv.operator();
    expectError(await w.GET("/orders/{order_id}", path(id)), 403, "access_denied");
    expectError(await expectUnchanged(srv, () => w.POST("/orders/_create", { body: order() })), 403, "access_denied");
  });

  it("shares the merchant's catalogue with inbound shipments", async () => {
    const shop = await srv.merchant();
    await createOrder(shop, order({ products: [orderLine({ merchants_id: "SHARED-1", name: "From an order" })] }));
    const created = await shop.POST("/inbound_shipments/_create", {
      body: announcement({ products: [{ merchants_id: "SHARED-1", qty: 5 }] }),
    });
    const shipment = await shop.GET("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: created.data!.shipment_id } },
    });
    expect(shipment.data!.products[0]!.product).toMatchObject({ merchants_id: "SHARED-1", name: "From an order" });
    await createOrder(shop, order({ products: [orderLine({ merchants_id: "SHARED-1", name: "Renamed" })] }));
    const again = await shop.GET("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: created.data!.shipment_id } },
    });
    expect(again.data!.products[0]!.product).toMatchObject({
      id: shipment.data!.products[0]!.product.id,
      name: "Renamed",
    });
  });
});

describe("bad orders: exact status and code, nothing stored", () => {
  const line = (over: Record<string, unknown>) => order({ products: [orderLine(over)] });
  it.each([
    ["an unknown pickup point as destination", order({ destination: "0123456789abcdef01234567" }), "/body/destination"],
    ["an unknown destination word", { ...order(), destination: "drone" }, "/body/destination"],
    [
      "the same product twice",
      order({ products: [orderLine(), orderLine({ qty: 2 })] }),
      "/body/products/1/merchants_id",
    ],
    ["a unit price with three decimals", line({ unit_price: 1.999 }), "/body/products/0/unit_price"],
    ["a negative unit price", line({ unit_price: -1 }), "/body/products/0/unit_price"],
    ["qty 0", line({ qty: 0 }), "/body/products/0/qty"],
    ["a fractional weight", line({ weight_g: 1.5 }), "/body/products/0/weight_g"],
    [
      "a zero dimension",
      line({ dimensions_mm: { length: 0, width: 1, height: 1 } }),
      "/body/products/0/dimensions_mm/length",
    ],
    ["a dimension missing", line({ dimensions_mm: { length: 1, width: 1 } }), "/body/products/0/dimensions_mm/height"],
    ["letter_allowed as a string", line({ letter_allowed: "no" }), "/body/products/0/letter_allowed"],
    ["no products", order({ products: [] }), "/body/products"],
    [
      "a postal code FI cannot have",
      order({ customer: { postalcode: "123", country: "FI" } }),
      "/body/customer/postalcode",
    ],
    [
      "a lower-case country",
      { ...order(), customer: { postalcode: "20780", country: "fi" } },
      "/body/customer/country",
    ],
    [
      "a country ISO 3166-1 does not assign (XX)",
      { ...order(), customer: { postalcode: "20780", country: "XX" } },
      "/body/customer/country",
    ],
    [
      "a user-assigned country code (ZZ)",
      { ...order(), customer: { postalcode: "20780", country: "ZZ" } },
      "/body/customer/country",
    ],
    [
      "a bad email",
      order({ customer: { postalcode: "20780", country: "FI", email: "not-an-email" } }),
      "/body/customer/email",
    ],
    [
      "a bad phone",
      order({ customer: { postalcode: "20780", country: "FI", phone: "call me" } }),
      "/body/customer/phone",
    ],
    ["a duplicated tag", order({ tags: ["vip", "vip"] }), "/body/tags"],
    ["an empty tag", order({ tags: [""] }), "/body/tags/0"],
    ["an unknown property", { ...order(), shipping: "fast" }, "/body/shipping"],
    ["no merchants_ref", { customer: order().customer, products: order().products }, "/body/merchants_ref"],
  ])("create refuses %s (400 naming it)", async (_name, body, where) => {
    const r = await expectUnchanged(srv, () => m.POST("/orders/_create", { body: body as S["OrderCreate"] }));
    expectError(r, 400, "validation_failed", [where]);
  });

  it.each([
    ["an empty body", {}, "/body"],
    ["an unknown pickup point", { destination: "0123456789abcdef01234567" }, "/body/destination"],
    ["the same product twice", { products: [orderLine(), orderLine()] }, "/body/products/1/merchants_id"],
    ["a postal code FI cannot have", { customer: { postalcode: "ABCDE", country: "FI" } }, "/body/customer/postalcode"],
    ["merchants_ref null", { merchants_ref: null }, "/body/merchants_ref"],
  ])("modify refuses %s (400 naming it)", async (_name, body, where) => {
    const id = await createOrder(m);
    const r = await expectUnchanged(srv, () =>
      m.POST("/orders/{order_id}", { ...path(id), body: body as S["OrderModify"] }),
    );
    expectError(r, 400, "validation_failed", [where]);
  });
});
