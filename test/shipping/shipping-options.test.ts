// GET /shipping_options: SEED.md's worked query, every reason code, fees from the merchant's rules, bad input.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { distanceM } from "../../server/shared/geo.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { SETTINGS, configure, list, loadDemo, pickupPoints, shippingOptions } from "../helpers/shipping.ts";
import { spec } from "../helpers/spec.ts";

type S = components["schemas"];
const workedFacts =
  spec.paths["/shipping_options"].get.responses["200"].content["application/json"].examples.worked.value.facts;
const demoPoints: S["PickupPoint"][] = JSON.parse(readFileSync("server/pickup-points/demo/pickup-points.json", "utf8"));
const KAARINA: [number, number] = [60.407, 22.369];
const nearestIds = (n: number) =>
  demoPoints
    .map((p) => ({ id: p.id, d: distanceM(KAARINA, p.coordinates) }))
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .slice(0, n)
    .map((x) => x.id);

const ALL = [
  list("letter"),
  list("home"),
  list("pickup", {
    pricing_rules: [
      { description: "Posti points", criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }], price: 3.9 },
    ],
  }),
];

let srv: TestServer;
useTestServer(async (s) => {
  srv = s;
  await loadDemo(srv);
});

async function merchant(
  settings: S["ShippingSettingsInput"] = SETTINGS,
  lists: S["PriceListInput"][] = ALL,
): Promise<LogisticsClient> {
  const m = await srv.merchant();
  await configure(m, settings, lists);
  return m;
}

describe("SEED.md's worked query: postalcode 20780, FI, no weight", () => {
  it("gives the worked facts, letter item_does_not_allow, home merchant_disabled (switched off), pickup points keyed by id, nearest first, each priced", async () => {
    const m = await merchant({ ...SETTINGS, home: { enabled: false } });
    const r = await shippingOptions(m, { postalcode: "20780", country: "FI" });
    expect(Object.keys(r)).toEqual(["facts", "options"]);
    expect(r.facts).toEqual({ ...workedFacts, "customer.postalcode": "20780" });
    expect(Object.keys(r.facts)).toEqual(Object.keys(workedFacts));
    expect(r.options.letter).toEqual({ available: false, reason: "item_does_not_allow" });
    expect(r.options.home).toEqual({ available: false, reason: "merchant_disabled" });
    expect(r.options.pickup).not.toHaveProperty("price");
    const pickup = r.options.pickup as { available: true; pickup_points: Record<string, S["PickupPointWithPrice"]> };
    expect(Object.keys(pickup.pickup_points)).toEqual(nearestIds(10));
    for (const [id, p] of Object.entries(pickup.pickup_points)) {
      const { price, ...rest } = p;
      expect(rest).toEqual(demoPoints.find((d) => d.id === id));
      expect(price).toEqual({ gross: p.branch === "fi.posti" ? 3.9 : 4.9, currency: "EUR", tax: 25.5 });
    }
    expect(new Set(Object.values(pickup.pickup_points).map((p) => p.price.gross))).toEqual(new Set([3.9, 4.9]));
  });

  it("country defaults to FI", async () => {
    const m = await merchant();
    expect((await shippingOptions(m, { postalcode: "20780" })).facts["customer.country"]).toBe("FI");
  });
});

describe("availability: every reason code", () => {
  it("letter: available with a weight within the letter limit; item_does_not_allow above it", async () => {
    const m = await merchant();
    const light = await shippingOptions(m, { postalcode: "00100", weight: 350 });
    expect(light.facts).toMatchObject({ "order.total_weight": 350, "order.letter_possible": true });
    expect(light.options.letter).toEqual({ available: true, price: { gross: 2.9, currency: "EUR", tax: 25.5 } });
    expect((await shippingOptions(m, { postalcode: "00100", weight: 2000 })).options.letter.available).toBe(true);
    expect((await shippingOptions(m, { postalcode: "00100", weight: 2001 })).options.letter).toEqual({
      available: false,
      reason: "item_does_not_allow",
    });
    expect((await shippingOptions(m, { postalcode: "00100", weight: 0.5 })).facts["order.total_weight"]).toBe(0.5);
  });

  it("merchant_disabled: switched off, or no price list for the method", async () => {
    const m = await merchant({ ...SETTINGS, letter: { enabled: false, max_weight_g: 2000 } }, [list("home")]);
    const r = await shippingOptions(m, { postalcode: "00100", weight: 100 });
    expect(r.options).toEqual({
      letter: { available: false, reason: "merchant_disabled" },
      home: { available: true, price: { gross: 5.9, currency: "EUR", tax: 25.5 } },
      pickup: { available: false, reason: "merchant_disabled" },
    });
    // A merchant that configured nothing has no price lists: nothing is available.
    const bare = await srv.merchant();
    const none = await shippingOptions(bare, { postalcode: "00100" });
    expect(Object.values(none.options).map((o) => (o as { reason?: string }).reason)).toEqual([
      "merchant_disabled",
      "merchant_disabled",
      "merchant_disabled",
    ]);
  });

  it("country_not_served: a customer outside the merchant's countries is not an error", async () => {
    const m = await merchant({ ...SETTINGS, home: { enabled: false } });
    const r = await shippingOptions(m, { postalcode: "111 22", country: "SE", weight: 100 });
    expect(r.facts).toMatchObject({ "customer.country": "SE", "customer.postalcode": "111 22" });
    expect(r.options).toEqual({
      letter: { available: false, reason: "country_not_served" },
      home: { available: false, reason: "merchant_disabled" },
      pickup: { available: false, reason: "country_not_served" },
    });
  });

  it("weight_exceeded: heavier than the method's max_weight_g; no limit when absent", async () => {
    const m = await merchant({ ...SETTINGS, pickup: { enabled: true, max_weight_g: 35000 } });
    const r = await shippingOptions(m, { postalcode: "20780", weight: 35001 });
    expect(r.options.pickup).toEqual({ available: false, reason: "weight_exceeded" });
    expect(r.options.home).toEqual({ available: true, price: { gross: 5.9, currency: "EUR", tax: 25.5 } });
    expect((await shippingOptions(m, { postalcode: "20780", weight: 35000 })).options.pickup.available).toBe(true);
  });

  it("no_pickup_points: a served country whose directory has nothing", async () => {
    const m = await merchant({ ...SETTINGS, countries: ["FI", "SE"] });
    const r = await shippingOptions(m, { postalcode: "111 22", country: "SE" });
    expect(r.options.pickup).toEqual({ available: false, reason: "no_pickup_points" });
    expect(r.options.home.available).toBe(true);
  });

  it("pickup_points_too_far: 99800 (Ivalo), whose nearest point is 814 km away, over the default 50 km", async () => {
    const m = await merchant();
    const r = await shippingOptions(m, { postalcode: "99800" });
    expect(r.options.pickup).toEqual({ available: false, reason: "pickup_points_too_far" });
    expect(r.options.home.available).toBe(true);
    // Within the merchant's own distance: offered, the nearest (Tampere) first.
    const far = await merchant({ ...SETTINGS, pickup: { enabled: true, max_distance_km: 900 } });
    const points = pickupPoints((await shippingOptions(far, { postalcode: "99800" })).options);
    expect(points.length).toBeGreaterThan(0);
    expect(points[0]!.city).toBe("TAMPERE");
  });

  it("leaves out points beyond pickup.max_distance_km: 20780 with 3 km offers only the points within 3 km", async () => {
    const m = await merchant({ ...SETTINGS, pickup: { enabled: true, max_distance_km: 3 }, pickup_points_limit: 50 });
    const within = demoPoints
      .map((p) => ({ id: p.id, d: distanceM(KAARINA, p.coordinates) }))
      .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
      .filter((x) => x.d <= 3000)
      .map((x) => x.id);
    expect(within.length).toBeGreaterThan(0);
    expect(within.length).toBeLessThan(10);
    expect(pickupPoints((await shippingOptions(m, { postalcode: "20780" })).options).map((p) => p.id)).toEqual(within);
  });

  it("unknown_postal_code: 99999 and 20781, which the directory does not know, never a neighbour's points", async () => {
    const m = await merchant({ ...SETTINGS, pickup: { enabled: true, max_distance_km: 1000 } });
    for (const postalcode of ["99999", "20781"]) {
      const r = await shippingOptions(m, { postalcode });
      expect(r.options.pickup, postalcode).toEqual({ available: false, reason: "unknown_postal_code" });
      expect(r.options.home.available).toBe(true);
    }
  });

  it("offers pickup_points_limit points", async () => {
    const m = await merchant({ ...SETTINGS, pickup_points_limit: 3 });
    expect(Object.keys(pickupPoints((await shippingOptions(m, { postalcode: "20780" })).options))).toHaveLength(3);
    // The demo's 50 points nearest to 20780 reach 145 km: a merchant allowing that far.
    const fifty = await merchant({
      ...SETTINGS,
      pickup: { enabled: true, max_distance_km: 200 },
      pickup_points_limit: 50,
    });
    expect(pickupPoints((await shippingOptions(fifty, { postalcode: "20780" })).options).map((p) => p.id)).toEqual(
      nearestIds(50),
    );
  });
});

describe("fees from the merchant's price lists", () => {
  it("first matching pricing rule sets the base, every matching modification adjusts it in order, rounded per step, never below 0", async () => {
    const m = await merchant(SETTINGS, [
      list("home", {
        currency: "SEK",
        tax: 25,
        fallback_price: 9.99,
        pricing_rules: [
          { criteria: [{ fact: "order.total_weight", op: ">", value: 10000 }], price: 19.9 },
          { criteria: [{ fact: "order.total_weight", op: ">", value: 1000 }], price: 6.9 }, // first match wins over the next
          { criteria: [{ fact: "order.total_weight", op: ">", value: 500 }], price: 3.45 },
        ],
        modification_rules: [
          { criteria: [{ fact: "order.total_weight", op: "<", value: 1000 }], adjust: "multiply", amount: 0.5 }, // 3.45 x 0.5 = 1.725 -> 1.73
          { criteria: [{ fact: "customer.postalcode", op: "in", value: ["00100"] }], adjust: "add", amount: 1 },
          { criteria: [{ fact: "order.total_weight", op: ">", value: 20000 }], adjust: "add", amount: -100 },
          { criteria: [{ fact: "order.total_weight", op: ">", value: 30000 }], adjust: "add", amount: 0.5 }, // from 0, not from -80.1
        ],
      }),
    ]);
    const fee = async (weight: number, postalcode = "20780") =>
      (await shippingOptions(m, { postalcode, weight })).options.home;
    expect(await fee(100)).toEqual({ available: true, price: { gross: 5, currency: "SEK", tax: 25 } }); // fallback 9.99 x 0.5 = 4.995 -> 5
    expect(await fee(600)).toEqual({ available: true, price: { gross: 1.73, currency: "SEK", tax: 25 } });
    expect(await fee(600, "00100")).toEqual({ available: true, price: { gross: 2.73, currency: "SEK", tax: 25 } });
    expect(await fee(5000)).toEqual({ available: true, price: { gross: 6.9, currency: "SEK", tax: 25 } });
    expect(await fee(25000)).toEqual({ available: true, price: { gross: 0, currency: "SEK", tax: 25 } });
    expect(await fee(31000)).toEqual({ available: true, price: { gross: 0.5, currency: "SEK", tax: 25 } });
  });

  it("prices each pickup point by its branch; a change to the list applies to the next query", async () => {
    const m = await srv.merchant();
    const [, , pickup] = await configure(m, SETTINGS, ALL);
    const before = pickupPoints((await shippingOptions(m, { postalcode: "20780" })).options);
    expect(before.filter((p) => p.branch === "fi.db_schenker").map((p) => p.price.gross)).toEqual([4.9]);
    const put = await m.PUT("/merchant/price_lists/{price_list_id}", {
      params: { path: { price_list_id: pickup!.id } },
      body: list("pickup", {
        pricing_rules: [
          { criteria: [{ fact: "pup.branch", op: "in", value: ["fi.db_schenker", "fi.k-market"] }], price: 2.5 },
        ],
      }),
    });
    expect(put.response.status).toBe(200);
    const after = pickupPoints((await shippingOptions(m, { postalcode: "20780" })).options);
    expect(after.map((p) => [p.branch, p.price.gross])).toEqual(
      after.map((p) => [p.branch, p.branch === "fi.db_schenker" ? 2.5 : 4.9]),
    );
    await m.PUT("/merchant/shipping_settings", { body: { ...SETTINGS, pickup: { enabled: false } } });
    expect((await shippingOptions(m, { postalcode: "20780" })).options.pickup).toEqual({
      available: false,
      reason: "merchant_disabled",
    });
  });

  it("are each merchant's own", async () => {
    const cheap = await merchant(SETTINGS, [list("home", { fallback_price: 1 })]);
    const dear = await merchant(SETTINGS, [list("home", { fallback_price: 10 })]);
    expect((await shippingOptions(cheap, { postalcode: "00100" })).options.home).toMatchObject({ price: { gross: 1 } });
    expect((await shippingOptions(dear, { postalcode: "00100" })).options.home).toMatchObject({ price: { gross: 10 } });
  });
});

describe("bad input", () => {
  it.each([
    ["a negative weight", { postalcode: "20780", weight: -1 }, "/query/weight"],
    ["a weight that is not a number", { postalcode: "20780", weight: "heavy" }, "/query/weight"],
    ["a weight over 1000 kg", { postalcode: "20780", weight: 1000001 }, "/query/weight"],
    ["a postal code FI cannot have", { postalcode: "2078" }, "/query/postalcode"],
    ["a malformed postal code", { postalcode: "20 780 !" }, "/query/postalcode"],
    ["a lower-case country", { postalcode: "20780", country: "fi" }, "/query/country"],
    ["no postal code", {}, "/query/postalcode"],
    ["an unknown parameter", { postalcode: "20780", weigth: 100 }, "/query/weigth"],
  ])("refuses %s: 400 validation_failed naming it, nothing stored", async (_name, query, path) => {
    const m = await merchant();
    const r = await expectUnchanged(srv, () => m.GET("/shipping_options", { params: { query: query as never } }));
    expectError(r, 400, "validation_failed", [path]);
  });

  it("is for merchants: a warehouse operator is 403", async () => {
    expectError(
      await (await srv.operator()).GET("/shipping_options", { params: { query: { postalcode: "20780" } } }),
      403,
      "access_denied",
    );
  });
});
