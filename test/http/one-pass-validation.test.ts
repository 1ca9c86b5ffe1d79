// One validation pass: a request's 400 lists its schema problems and the problems of its operation's value rules
// (check digits, cents, duplicates, real dates...: server/value-rules.ts) at once, each field once; malformed
// parts are the schema's alone; and a refused request changes nothing.
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { announcement, arrive, createShipment, expectError, expectUnchanged, moveTo } from "../helpers/fixtures.ts";
import { useTestAccounts, type TestServer } from "../helpers/server.ts";
import { list } from "../helpers/shipping.ts";

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
useTestAccounts((s) => ({ srv, m, w } = s));

/** The details of a 400 validation_failed, as [path, code] pairs in answer order. */
function problems(result: { response: Response; error?: unknown }): [string, string | undefined][] {
  return expectError(result, 400, "validation_failed").details.map((d) => [d.path, d.code]);
}

const hourFromNow = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+00:00");

describe("announce (createInboundShipment)", () => {
  it("an empty sender_name, a wrong GTIN check digit and a purchasePrice of 1.555: one 400 with all three", async () => {
    const body = announcement({
      sender_name: "",
      products: [
        { merchants_id: "SKU-1", name: "Blue T-shirt M", gtin: "6410405082658", qty: 10 },
        { merchants_id: "SKU-2", name: "Blue T-shirt L", qty: 5, purchasePrice: 1.555 },
      ],
    });
    const r = await expectUnchanged(srv, () => m.POST("/inbound_shipments/_create", { body }));
    expect(problems(r)).toEqual([
      ["/body/sender_name", "minLength"],
      ["/body/products/0/gtin", "gtin"],
      ["/body/products/1/purchasePrice", "multipleOf"],
    ]);
  });

  it("a typo'd field, a duplicate merchants_id and qty 0 together", async () => {
    const body = {
      ...announcement(),
      expected_at_warehouse: "2016-01-20",
      products: [
        { merchants_id: "SKU-1", qty: 0 },
        { merchants_id: "SKU-1", qty: 1 },
      ],
    };
    const r = await expectUnchanged(srv, () => m.POST("/inbound_shipments/_create", { body: body as never }));
    expect(problems(r).sort()).toEqual(
      [
        ["/body/expected_at_warehouse", "additionalProperties"],
        ["/body/products/0/qty", "minimum"],
        ["/body/products/1/merchants_id", "duplicate"],
      ].sort(),
    );
  });

  it("a date that does not exist is named once, though the schema and the rule both see it", async () => {
    const r = await expectUnchanged(srv, () =>
      m.POST("/inbound_shipments/_create", { body: announcement({ sender_name: "", expected_at_wh: "2016-02-30" }) }),
    );
    expect(problems(r)).toEqual([
      ["/body/sender_name", "minLength"],
      ["/body/expected_at_wh", "format"],
    ]);
  });

  it("malformed lines are the schema's alone: no 500, no rule's word on a field of the wrong type", async () => {
    const body = {
      ...announcement(),
      sender_name: 5,
      products: [null, 7, "x", { merchants_id: 1, gtin: 6410405082658, qty: 1, purchasePrice: "1.555" }, []],
    };
    const r = await expectUnchanged(srv, () => m.POST("/inbound_shipments/_create", { body: body as never }));
    const got = problems(r);
    expect(got.length).toBeGreaterThan(0);
    expect(got.every(([, code]) => !["gtin", "multipleOf", "duplicate"].includes(code!))).toBe(true);
    const notArray = await expectUnchanged(srv, () =>
      m.POST("/inbound_shipments/_create", {
        body: { ...announcement(), products: "SKU-1", merchants_ref: "" } as never,
      }),
    );
    expect(problems(notArray).map(([path]) => path)).toEqual(
      expect.arrayContaining(["/body/products", "/body/merchants_ref"]),
    );
  });
});

describe("the other inbound writes", () => {
  it("modify: products with products_all, an unknown field and a wrong check digit together", async () => {
    const id = await createShipment(m);
    const r = await expectUnchanged(srv, () =>
      m.POST("/inbound_shipments/{shipment_id}", {
        params: { path: { shipment_id: id } },
        body: {
          colour: "blue",
          products: [{ merchants_id: "SKU-1001", qty: 1, gtin: "6410405082658" }],
          products_all: [{ merchants_id: "SKU-1001", qty: 1 }],
        } as never,
      }),
    );
    expect(problems(r).sort()).toEqual(
      [
        ["/body/colour", "additionalProperties"],
        ["/body/products_all", "oneOf"],
        ["/body/products/0/gtin", "gtin"],
      ].sort(),
    );
  });

  it("arrivals: change 0 and a ts an hour ahead together", async () => {
    const id = await createShipment(m);
    const r = await expectUnchanged(srv, () =>
      w.POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: id } },
        body: { ts: hourFromNow(), arrivals: [{ merchants_id: "SKU-1001", change: 0 }] },
      }),
    );
    expect(problems(r).map(([path]) => path)).toEqual(expect.arrayContaining(["/body/arrivals/0/change", "/body/ts"]));
    expect(problems(r).find(([path]) => path === "/body/ts")![1]).toBe("future");
  });

  it("arrivals: a leap second the schema allows but no clock can store is 400, not 500", async () => {
    const id = await createShipment(m);
    const r = await expectUnchanged(srv, () =>
      arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }], "2016-12-31T23:59:60Z"),
    );
    expect(problems(r).map(([path]) => path)).toEqual(["/body/ts"]);
  });

  it("_status: problem without problems and an unknown field together", async () => {
    const id = await createShipment(m);
    const r = await expectUnchanged(srv, () => moveTo(w, id, { status: "problem", note: "x" } as never));
    expect(problems(r).sort()).toEqual(
      [
        ["/body/note", "additionalProperties"],
        ["/body/problems", "required"],
      ].sort(),
    );
  });
});

describe("price lists", () => {
  it("create: a currency that is no ISO code and tax 25.555 together", async () => {
    const body = list("home", { currency: "XXX" as never, tax: 25.555 });
    const r = await expectUnchanged(srv, () => m.POST("/merchant/price_lists/_create", { body }));
    expect(problems(r)).toEqual(
      expect.arrayContaining([
        ["/body/currency", "enum"],
        ["/body/tax", "decimals"],
      ]),
    );
    expect(problems(r)).toHaveLength(2);
  });

  it("create: an unknown field, a rule price of 1.001 and an operator that cannot apply, together", async () => {
    const body = {
      ...list("pickup"),
      colour: "blue",
      pricing_rules: [{ criteria: [{ fact: "customer.postalcode", op: "<", value: 5 }], price: 1.001 }],
    };
    const r = await expectUnchanged(srv, () => m.POST("/merchant/price_lists/_create", { body: body as never }));
    expect(problems(r).sort()).toEqual(
      [
        ["/body/colour", "additionalProperties"],
        ["/body/pricing_rules/0/criteria/0/op", "operator_not_applicable"],
        ["/body/pricing_rules/0/price", "decimals"],
      ].sort(),
    );
  });

  it("replace: a missing name and a fallback_price of 4.999 together; the stored list stays", async () => {
    const created = await m.POST("/merchant/price_lists/_create", { body: list("letter") });
    expect(created.response.status).toBe(201);
    const { name: _name, ...nameless } = list("letter", { fallback_price: 4.999 });
    const r = await expectUnchanged(srv, () =>
      m.PUT("/merchant/price_lists/{price_list_id}", {
        params: { path: { price_list_id: created.data!.id } },
        body: nameless as never,
      }),
    );
    expect(problems(r).sort()).toEqual(
      [
        ["/body/fallback_price", "decimals"],
        ["/body/name", "required"],
      ].sort(),
    );
  });

  it("preview: a draft's tax 25.555, an unknown field and a postal code Finland cannot have, together", async () => {
    const r = await expectUnchanged(srv, () =>
      m.POST("/shipping_options/_preview", {
        body: { postalcode: "2078", colour: "blue", price_lists: [list("home", { tax: 25.555 })] } as never,
      }),
    );
    expect(problems(r).sort()).toEqual(
      [
        ["/body/colour", "additionalProperties"],
        ["/body/postalcode", "pattern"],
        ["/body/price_lists/0/tax", "decimals"],
      ].sort(),
    );
  });
});

describe("shipping options", () => {
  it("a postal code Finland cannot have and explain=maybe together", async () => {
    const r = await expectUnchanged(srv, () =>
      m.GET("/shipping_options", { params: { query: { postalcode: "2078", explain: "maybe" as never } } }),
    );
    expect(problems(r).sort()).toEqual(
      [
        ["/query/explain", "type"],
        ["/query/postalcode", "pattern"],
      ].sort(),
    );
  });

  it("a cart_value of 59.805 alone is 400 on /query/cart_value", async () => {
    const r = await expectUnchanged(srv, () =>
      m.GET("/shipping_options", { params: { query: { postalcode: "20780", cart_value: 59.805 } } }),
    );
    expect(problems(r)).toEqual([["/query/cart_value", "multipleOf"]]);
  });
});
