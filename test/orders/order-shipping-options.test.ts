// GET /orders/{id}/shipping_options: facts from the stored order, its chosen destination, letters, rules on order facts.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import {
  SETTINGS,
  configure,
  createOrder,
  list,
  loadDemo,
  order,
  orderLine,
  pickupPoints,
} from "../helpers/shipping.ts";
import { spec } from "../helpers/spec.ts";

type S = components["schemas"];
const homeOrder: S["OrderCreate"] =
  spec.paths["/orders/_create"].post.requestBody.content["application/json"].examples.home.value;
const orderExample =
  spec.paths["/orders/{order_id}/shipping_options"].get.responses["200"].content["application/json"].examples.order
    .value;
const homeListExample =
  spec.paths["/merchant/price_lists"].get.responses["200"].content["application/json"].example.items[0];
const KAARINA_POSTI = "8712b5457606ca2e4ba6f518";
const KAARINA_MATKAHUOLTO = "d7cad6002ff96859c30c5c20";

let srv: TestServer;
useTestServer(async (s) => {
  srv = s;
  await loadDemo(srv);
});

async function options(m: LogisticsClient, id: string) {
  const r = await m.GET("/orders/{order_id}/shipping_options", { params: { path: { order_id: id } } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return r.data!;
}

describe("per-order shipping options", () => {
  it("answer the spec's example for the spec's example order (letter-able, pickup switched off)", async () => {
    const m = await srv.merchant();
    const { id: _, created_at: __, updated_at: ___, ...home } = homeListExample;
    await configure(m, { ...SETTINGS, pickup: { enabled: false } }, [list("letter"), home, list("pickup")]);
    const id = await createOrder(m, homeOrder);
    const r = await options(m, id);
    expect(r).toEqual({ ...orderExample, order_id: id });
    expect(Object.keys(r)).toEqual(["order_id", "facts", "options"]);
  });

  it("take the chosen pickup point's branch as pup.branch, and still price every offered point by its own branch", async () => {
    const m = await srv.merchant();
    await configure(m, SETTINGS, [
      list("home", {
        modification_rules: [
          { criteria: [{ fact: "order.shipping_type", op: "==", value: "pickup" }], adjust: "add", amount: 10 },
        ],
      }),
      list("pickup", {
        pricing_rules: [{ criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }], price: 3.9 }],
      }),
    ]);
    const id = await createOrder(m, order({ destination: KAARINA_MATKAHUOLTO }));
    const r = await options(m, id);
    expect(r.facts).toMatchObject({ "order.shipping_type": "pickup", "pup.branch": "fi.matkahuolto" });
    expect(r.options.home).toEqual({ available: true, price: { gross: 15.9, currency: "EUR", tax: 25.5 } });
    const points = pickupPoints(r.options);
    expect(points.map((p) => p.price.gross)).toEqual(points.map((p) => (p.branch === "fi.posti" ? 3.9 : 4.9)));

    await m.POST("/orders/{order_id}", { params: { path: { order_id: id } }, body: { destination: KAARINA_POSTI } });
    expect((await options(m, id)).facts).toMatchObject({ "order.shipping_type": "pickup", "pup.branch": "fi.posti" });
    await m.POST("/orders/{order_id}", { params: { path: { order_id: id } }, body: { destination: "home" } });
    const home = await options(m, id);
    expect(home.facts).toMatchObject({ "order.shipping_type": "home", "pup.branch": null });
    expect(home.options.home).toMatchObject({ price: { gross: 5.9 } });
  });

  it("compute totals of several lines exactly, and rules on value and tags apply", async () => {
    const m = await srv.merchant();
    await configure(m, SETTINGS, [
      list("home", {
        modification_rules: [
          { criteria: [{ fact: "order.tags", op: "contains", value: "vip" }], adjust: "multiply", amount: 0.5 },
          { criteria: [{ fact: "order.total_eur", op: ">=", value: 100 }], adjust: "set", amount: 0 },
        ],
      }),
    ]);
    const id = await createOrder(
      m,
      order({
        customer: { postalcode: "00100", country: "FI", address: "Kaivokatu 1" },
        tags: ["vip"],
        products: [
          orderLine({
            merchants_id: "A",
            qty: 3,
            unit_price: 0.1,
            weight_g: 120,
            dimensions_mm: { length: 100, width: 100, height: 100 },
          }),
          orderLine({ merchants_id: "B", qty: 1, unit_price: 0.2, weight_g: 1000 }),
          orderLine({
            merchants_id: "C",
            qty: 2,
            unit_price: 19.99,
            weight_g: 0,
            dimensions_mm: { length: 1, width: 1, height: 1 },
          }),
        ],
      }),
    );
    const r = await options(m, id);
    expect(r.facts).toEqual({
      "pup.branch": null,
      "customer.country": "FI",
      "customer.postalcode": "00100",
      "customer.address": "Kaivokatu 1",
      "order.shipping_type": null,
      "order.tags": ["vip"],
      "order.total_eur": 40.48,
      "order.letter_possible": false, // a 100 mm cube is no letter
      "order.total_weight": 1360,
      "order.total_volume": 3,
      "order.item_count": 6,
      "order.item_article_count": 3,
    });
    expect(r.options.home).toEqual({ available: true, price: { gross: 2.95, currency: "EUR", tax: 25.5 } }); // 5.9 x 0.5
    await m.POST("/orders/{order_id}", {
      params: { path: { order_id: id } },
      body: { products: [orderLine({ qty: 5, unit_price: 20 })] },
    });
    const rich = await options(m, id);
    expect(rich.facts).toMatchObject({ "order.total_eur": 100, "order.item_count": 5, "order.item_article_count": 1 });
    expect(rich.options.home).toMatchObject({ price: { gross: 0 } });
  });

  it("offer a letter only when the weight is within the limit and every item may go as a letter", async () => {
    const m = await srv.merchant();
    await configure(m, { ...SETTINGS, letter: { enabled: true, max_weight_g: 500 } }, [list("letter")]);
    const letter = async (lines: S["OrderLine"][]) =>
      (await options(m, await createOrder(m, order({ products: lines })))).options.letter;
    expect(
      await letter([orderLine({ weight_g: 250, qty: 2, dimensions_mm: { length: 250, width: 353, height: 20 } })]),
    ).toEqual({ available: true, price: { gross: 2.9, currency: "EUR", tax: 25.5 } });
    expect(await letter([orderLine({ weight_g: 251, qty: 2 })])).toEqual({
      available: false,
      reason: "item_does_not_allow",
    });
    expect(
      await letter([
        orderLine({ weight_g: 10 }),
        orderLine({ merchants_id: "FRAGILE", weight_g: 10, letter_allowed: false }),
      ]),
    ).toEqual({ available: false, reason: "item_does_not_allow" });
    expect(await letter([orderLine({ weight_g: 10, dimensions_mm: { length: 300, width: 200, height: 33 } })])).toEqual(
      { available: false, reason: "item_does_not_allow" },
    );
  });

  it("use the order's customer country: outside the merchant's countries is country_not_served", async () => {
    const m = await srv.merchant();
    await configure(m, SETTINGS, [list("letter"), list("home"), list("pickup")]);
    const r = await options(m, await createOrder(m, order({ customer: { postalcode: "10111", country: "EE" } })));
    expect(Object.values(r.options)).toEqual([0, 1, 2].map(() => ({ available: false, reason: "country_not_served" })));
  });

  it("use the order's postal code: 99800 (nearest point 814 km) is pickup_points_too_far, 99999 unknown_postal_code", async () => {
    const m = await srv.merchant();
    await configure(m, SETTINGS, [list("home"), list("pickup")]);
    const ivalo = await options(m, await createOrder(m, order({ customer: { postalcode: "99800", country: "FI" } })));
    expect(ivalo.options.pickup).toEqual({ available: false, reason: "pickup_points_too_far" });
    expect(ivalo.options.home.available).toBe(true);
    const unknown = await options(m, await createOrder(m, order({ customer: { postalcode: "99999", country: "FI" } })));
    expect(unknown.options.pickup).toEqual({ available: false, reason: "unknown_postal_code" });
    // The merchant's own distance: within 900 km, Ivalo's customer is offered the nearest points (Tampere).
    await configure(m, { ...SETTINGS, pickup: { enabled: true, max_distance_km: 900 } }, []);
    const offered = pickupPoints((await options(m, ivalo.order_id)).options);
    expect(offered[0]!.city).toBe("TAMPERE");
  });
});
