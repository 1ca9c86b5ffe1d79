import { describe, expect, it } from "vitest";
import type { components } from "../../generated/api.ts";
import { genericFacts, orderFacts } from "../../server/shipping/facts.ts";
import {
  buildShippingOptions,
  unavailableDetail,
  unavailableReason,
  type MethodPriceList,
  type MethodSettings,
  type PickupPoint,
  type ShippingOptionsInput,
} from "../../server/shipping/methods.ts";
import { specValidator } from "../../server/shared/spec-schemas.ts";
import { spec } from "../helpers/spec.ts";

type PickupPointWithDistance = components["schemas"]["PickupPointWithDistance"];
const workedExample =
  spec.paths["/shipping_options"].get.responses["200"].content["application/json"].examples.worked.value;
const orderExample =
  spec.paths["/orders/{order_id}/shipping_options"].get.responses["200"].content["application/json"].examples.order
    .value;
const lookupExample =
  spec.paths["/pickup_points/lookup"].get.responses["200"].content["application/json"].examples.helsinki.value;
const homeListExample: MethodPriceList =
  spec.paths["/merchant/price_lists"].get.responses["200"].content["application/json"].example.items[0];
const pickupListExample: MethodPriceList =
  spec.paths["/merchant/price_lists/_create"].post.requestBody.content["application/json"].example;

const settings = (over: Partial<MethodSettings> = {}): MethodSettings => ({
  letter: { enabled: true, max_weight_g: 2000 },
  home: { enabled: true },
  pickup: { enabled: true, max_distance_km: 50 },
  countries: ["FI"],
  ...over,
});
const letterList: MethodPriceList = {
  name: "Letters",
  method: "letter",
  currency: "EUR",
  tax: 25.5,
  fallback_price: 2.9,
};
const homeList: MethodPriceList = { name: "Home", method: "home", currency: "EUR", tax: 25.5, fallback_price: 5.9 };
const points: PickupPointWithDistance[] = lookupExample.pickup_points; // nearest first, with distance_m
const facts = genericFacts({ postalcode: "00100", country: "FI" }, { max_weight_g: 2000 });
const input = (over: Partial<ShippingOptionsInput> = {}): ShippingOptionsInput => ({
  settings: settings(),
  priceLists: [letterList, homeList, pickupListExample],
  facts,
  pickupPoints: points,
  ...over,
});
const validResult = specValidator("ShippingOptionsResult");

describe("buildShippingOptions", () => {
  it("reproduces the spec's worked generic answer from the spec's own price list and lookup examples", () => {
    const options = buildShippingOptions(input());
    expect(JSON.stringify({ facts, options })).toBe(JSON.stringify(workedExample)); // key order too: nearest first
    expect(validResult({ facts, options }), JSON.stringify(validResult.errors)).toBe(true);
  });

  it("reproduces the spec's per-order answer (letter-able order, pickup switched off)", () => {
    const body = spec.paths["/orders/_create"].post.requestBody.content["application/json"].examples.home.value;
    const f = orderFacts(body, { max_weight_g: 2000 });
    const options = buildShippingOptions(
      input({
        facts: f,
        settings: settings({ pickup: { enabled: false, max_distance_km: 50 } }),
        priceLists: [letterList, homeListExample, pickupListExample],
      }),
    );
    expect(options).toEqual(orderExample.options);
  });

  it("SEED's worked query at 20780: letter item_does_not_allow, home merchant_disabled when off, pickup points keyed by id nearest first, each priced", () => {
    const kaarina = genericFacts({ postalcode: "20780", country: "FI" }, { max_weight_g: 2000 });
    const options = buildShippingOptions(input({ facts: kaarina, settings: settings({ home: { enabled: false } }) }));
    expect(options.letter).toEqual({ available: false, reason: "item_does_not_allow" });
    expect(options.home).toEqual({ available: false, reason: "merchant_disabled" });
    expect(options.pickup.available).toBe(true);
    const pickup = options.pickup as { pickup_points: Record<string, { id: string; price: unknown }> };
    expect(Object.keys(pickup.pickup_points)).toEqual(points.map((p) => p.id));
    for (const [id, p] of Object.entries(pickup.pickup_points)) {
      expect(p.id).toBe(id);
      expect(p).not.toHaveProperty("distance_m");
    }
    expect(Object.values(pickup.pickup_points).map((p) => p.price)).toEqual([
      { gross: 3.9, currency: "EUR", tax: 25.5 },
      { gross: 4.9, currency: "EUR", tax: 25.5 },
    ]);
    expect(pickup).not.toHaveProperty("price");
    expect(validResult({ facts: kaarina, options })).toBe(true);
  });

  it("prices an available letter and home, and never prices an unavailable method", () => {
    const f = genericFacts({ postalcode: "00100", country: "FI" }, { max_weight_g: 2000 });
    const withWeight = { ...f, "order.total_weight": 100, "order.letter_possible": true };
    const options = buildShippingOptions(input({ facts: withWeight }));
    expect(options.letter).toEqual({ available: true, price: { gross: 2.9, currency: "EUR", tax: 25.5 } });
    expect(options.home).toEqual({ available: true, price: { gross: 5.9, currency: "EUR", tax: 25.5 } });
    const off = buildShippingOptions(input({ settings: settings({ letter: { enabled: false, max_weight_g: 2000 } }) }));
    expect(off.letter).toEqual({ available: false, reason: "merchant_disabled" });
  });

  it("uses each point's branch for its price, and the customer's facts for the rest", () => {
    const vip = { ...facts, "order.tags": ["vip"] };
    const options = buildShippingOptions(input({ facts: vip }));
    const prices = Object.values(
      (options.pickup as { pickup_points: Record<string, { price: { gross: number } }> }).pickup_points,
    ).map((p) => p.price.gross);
    expect(prices).toEqual([0, 0]); // "Free for VIP customers in Finland" applies after the per-branch base price
  });

  it("offers at most `limit` points (default 10, at most 50), first come first kept", () => {
    const many: PickupPoint[] = Array.from({ length: 60 }, (_, i) => ({
      ...points[0]!,
      id: i.toString(16).padStart(24, "a"),
    }));
    const count = (limit?: number) =>
      Object.keys(
        (buildShippingOptions(input({ pickupPoints: many, limit })).pickup as { pickup_points: object }).pickup_points,
      );
    expect(count()).toHaveLength(10);
    expect(count(3)).toEqual(many.slice(0, 3).map((p) => p.id));
    expect(count(500)).toHaveLength(50);
    expect(count(0)).toHaveLength(1);
    const dup = buildShippingOptions(input({ pickupPoints: [points[0]!, points[0]!, points[1]!] }));
    expect(Object.keys((dup.pickup as { pickup_points: object }).pickup_points)).toEqual(points.map((p) => p.id));
  });
});

describe("unavailableReason: every reason code", () => {
  it("merchant_disabled: switched off, or no price list for the method", () => {
    expect(unavailableReason("home", input({ settings: settings({ home: { enabled: false } }) }))).toBe(
      "merchant_disabled",
    );
    expect(unavailableReason("pickup", input({ priceLists: [letterList, homeList] }))).toBe("merchant_disabled");
    expect(
      unavailableReason(
        "letter",
        input({ priceLists: [homeList], facts: { ...facts, "order.letter_possible": true } }),
      ),
    ).toBe("merchant_disabled");
  });

  it("country_not_served: the customer's country is not among the merchant's countries (after merchant_disabled)", () => {
    const se = genericFacts({ postalcode: "111 22", country: "SE" }, { max_weight_g: 2000 });
    for (const m of ["letter", "home", "pickup"] as const)
      expect(unavailableReason(m, input({ facts: se }))).toBe("country_not_served");
    expect(unavailableReason("home", input({ facts: se, settings: settings({ home: { enabled: false } }) }))).toBe(
      "merchant_disabled",
    );
    expect(unavailableReason("home", input({ facts: se, settings: settings({ countries: ["FI", "SE"] }) }))).toBeNull();
  });

  it("item_does_not_allow: letter not possible (weight unknown, over the limit, an item not letter-able)", () => {
    expect(unavailableReason("letter", input())).toBe("item_does_not_allow");
    expect(unavailableReason("letter", input({ facts: { ...facts, "order.letter_possible": true } }))).toBeNull();
  });

  it("weight_exceeded: heavier than the method's max_weight_g in the settings; no limit when absent", () => {
    const heavy = { ...facts, "order.total_weight": 35_001 };
    const limited = settings({
      home: { enabled: true, max_weight_g: 30_000 },
      pickup: { enabled: true, max_weight_g: 35_000, max_distance_km: 50 },
    });
    expect(unavailableReason("pickup", input({ facts: heavy, settings: limited }))).toBe("weight_exceeded");
    expect(
      unavailableReason("pickup", input({ facts: { ...facts, "order.total_weight": 35_000 }, settings: limited })),
    ).toBeNull();
    expect(unavailableReason("home", input({ facts: heavy, settings: limited }))).toBe("weight_exceeded");
    expect(unavailableReason("home", input({ facts: heavy }))).toBeNull();
    expect(unavailableReason("pickup", input({ facts: heavy }))).toBeNull();
  });

  it("no_pickup_points: nothing near the customer", () => {
    expect(unavailableReason("pickup", input({ pickupPoints: [] }))).toBe("no_pickup_points");
    expect(buildShippingOptions(input({ pickupPoints: [] })).pickup).toEqual({
      available: false,
      reason: "no_pickup_points",
    });
  });

  it("unknown_postal_code, pickup_points_too_far: the directory's reason for no points, in words naming the setting", () => {
    for (const reason of ["unknown_postal_code", "pickup_points_too_far"] as const) {
      expect(unavailableReason("pickup", input({ pickupPoints: [], pickupReason: reason }))).toBe(reason);
      expect(buildShippingOptions(input({ pickupPoints: [], pickupReason: reason })).pickup).toEqual({
        available: false,
        reason,
      });
    }
    // Points win over a stale reason; an earlier reason wins over the directory's.
    expect(unavailableReason("pickup", input({ pickupReason: "pickup_points_too_far" }))).toBeNull();
    const off = settings({ pickup: { enabled: false, max_distance_km: 50 } });
    expect(
      unavailableReason("pickup", input({ settings: off, pickupPoints: [], pickupReason: "unknown_postal_code" })),
    ).toBe("merchant_disabled");
    expect(unavailableDetail("pickup", "pickup_points_too_far", input({ pickupPoints: [] }))).toContain(
      "pickup.max_distance_km 50 km",
    );
  });

  it("every code of the spec's enum is produced by some case above", () => {
    expect(spec.components.schemas.ShippingUnavailableReason.enum.sort()).toEqual([
      "country_not_served",
      "item_does_not_allow",
      "merchant_disabled",
      "no_pickup_points",
      "pickup_points_too_far",
      "unknown_postal_code",
      "weight_exceeded",
    ]);
  });
});
