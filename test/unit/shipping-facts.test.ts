import { describe, expect, it } from "vitest";
import {
  fitsLetter,
  genericFacts,
  orderFacts,
  shippingTypeOf,
  type LetterLimits,
  type OrderFactsInput,
  type OrderFactsLine,
} from "../../server/shipping/facts.ts";
import { spec } from "../helpers/spec.ts";

const example = (path: string, status: string, name: string) =>
  spec.paths[path].get.responses[status].content["application/json"].examples[name].value;

const letter: LetterLimits = { max_weight_g: 2000 };
const line = (over: Partial<OrderFactsLine> = {}): OrderFactsLine => ({
  merchants_id: "SKU-1",
  qty: 1,
  unit_price: 10,
  weight_g: 100,
  ...over,
});
const order = (over: Partial<OrderFactsInput> = {}): OrderFactsInput => ({
  customer: { postalcode: "20780", country: "FI" },
  products: [line()],
  ...over,
});

describe("genericFacts", () => {
  it("gives SEED.md's worked facts for postalcode 20780, FI, no weight (the spec's example, same keys and values)", () => {
    const worked = example("/shipping_options", "200", "worked").facts;
    const facts = genericFacts({ postalcode: "20780", country: "FI" }, letter);
    expect(facts).toEqual({ ...worked, "customer.postalcode": "20780" });
    expect(Object.keys(facts)).toEqual(Object.keys(worked));
    expect(genericFacts({ postalcode: "00100", country: "FI" }, letter)).toEqual(worked);
    expect(genericFacts({ postalcode: "00100", country: "FI", weight: null }, letter)).toEqual(worked);
  });

  it("takes the weight as total_weight and allows a letter only when it is given and within the limit", () => {
    expect(genericFacts({ postalcode: "20780", country: "FI", weight: 350 }, letter)).toMatchObject({
      "order.total_weight": 350,
      "order.letter_possible": true,
      "order.item_count": 0,
      "order.total_eur": 0,
    });
    expect(genericFacts({ postalcode: "20780", country: "FI", weight: 2000 }, letter)["order.letter_possible"]).toBe(
      true,
    );
    expect(genericFacts({ postalcode: "20780", country: "FI", weight: 2001 }, letter)["order.letter_possible"]).toBe(
      false,
    );
    expect(genericFacts({ postalcode: "20780", country: "FI", weight: 0 }, letter)["order.letter_possible"]).toBe(true);
  });
});

describe("orderFacts", () => {
  it("computes the spec's per-order example from the spec's createOrder example", () => {
    const body = spec.paths["/orders/_create"].post.requestBody.content["application/json"].examples.home.value;
    const expected = example("/orders/{order_id}/shipping_options", "200", "order").facts;
    const facts = orderFacts(body, letter);
    expect(facts).toEqual(expected); // total_volume: 2 items of 300 x 200 x 20 mm are 2 x 1.2 l
  });

  it("sums several lines: value in cents, weight, volume, items, distinct articles", () => {
    const facts = orderFacts(
      order({
        products: [
          line({
            merchants_id: "A",
            qty: 3,
            unit_price: 0.1,
            weight_g: 120,
            dimensions_mm: { length: 100, width: 100, height: 100 },
          }),
          line({ merchants_id: "B", qty: 1, unit_price: 0.2, weight_g: 1000 }),
          line({
            merchants_id: "C",
            qty: 2,
            unit_price: 19.99,
            weight_g: 0,
            dimensions_mm: { length: 1, width: 1, height: 1 },
          }),
        ],
        tags: ["vip"],
      }),
      { max_weight_g: 5000 },
    );
    expect(facts["order.total_eur"]).toBe(40.48); // 0.3 + 0.2 + 39.98 without float noise
    expect(facts["order.total_weight"]).toBe(1360);
    expect(facts["order.total_volume"]).toBe(3); // 3 x 1 l + 2 x 1 mm3 (rounded to ml)
    expect(facts["order.item_count"]).toBe(6);
    expect(facts["order.item_article_count"]).toBe(3);
    expect(facts["order.tags"]).toEqual(["vip"]);
  });

  it("counts distinct products, not lines", () => {
    expect(orderFacts(order({ products: [line(), line({ qty: 2 })] }), letter)["order.item_article_count"]).toBe(1);
  });

  it("fills customer fields and address null when unknown", () => {
    expect(orderFacts(order(), letter)).toMatchObject({
      "customer.country": "FI",
      "customer.postalcode": "20780",
      "customer.address": null,
      "order.tags": [],
    });
    expect(
      orderFacts(order({ customer: { postalcode: "00100", country: "FI", address: "Kaivokatu 1" } }), letter)[
        "customer.address"
      ],
    ).toBe("Kaivokatu 1");
  });

  it("derives shipping_type from the destination and pup.branch only for a pickup point", () => {
    const id = "5a1f0c2e9b8d7a6f5e4d3c2b";
    expect(orderFacts(order({ destination: id }), letter, "fi.posti")).toMatchObject({
      "order.shipping_type": "pickup",
      "pup.branch": "fi.posti",
    });
    expect(orderFacts(order({ destination: "home" }), letter, "fi.posti")).toMatchObject({
      "order.shipping_type": "home",
      "pup.branch": null,
    });
    expect(orderFacts(order({ destination: "letter" }), letter)).toMatchObject({
      "order.shipping_type": "letter",
      "pup.branch": null,
    });
    expect(orderFacts(order({ destination: null }), letter)).toMatchObject({
      "order.shipping_type": null,
      "pup.branch": null,
    });
    expect(orderFacts(order(), letter)["order.shipping_type"]).toBeNull();
    expect(shippingTypeOf(id)).toBe("pickup");
  });

  describe("letter_possible", () => {
    const possible = (o: OrderFactsInput, limits = letter) => orderFacts(o, limits)["order.letter_possible"];
    it("needs the total weight within the merchant's limit", () => {
      expect(possible(order({ products: [line({ qty: 4, weight_g: 500 })] }))).toBe(true);
      expect(possible(order({ products: [line({ qty: 4, weight_g: 501 })] }))).toBe(false);
      expect(possible(order({ products: [line({ qty: 4, weight_g: 501 })] }), { max_weight_g: 5000 })).toBe(true);
    });
    it("refuses an item marked letter_allowed: false", () => {
      expect(possible(order({ products: [line(), line({ merchants_id: "X", letter_allowed: false })] }))).toBe(false);
      expect(possible(order({ products: [line({ letter_allowed: true })] }))).toBe(true);
    });
    it("refuses an item too large for a letter in every orientation, and trusts lines without dimensions", () => {
      expect(possible(order({ products: [line({ dimensions_mm: { length: 20, width: 353, height: 250 } })] }))).toBe(
        true,
      );
      expect(possible(order({ products: [line({ dimensions_mm: { length: 354, width: 100, height: 10 } })] }))).toBe(
        false,
      );
      expect(possible(order({ products: [line({ dimensions_mm: { length: 100, width: 100, height: 33 } })] }))).toBe(
        false,
      );
      expect(
        possible(order({ products: [line({ dimensions_mm: { length: 100, width: 100, height: 33 } })] }), {
          max_weight_g: 2000,
          max_dimensions_mm: { length: 400, width: 300, height: 50 },
        }),
      ).toBe(true);
    });
    it("fitsLetter compares sorted sides", () => {
      expect(fitsLetter({ length: 32, width: 353, height: 250 })).toBe(true);
      expect(fitsLetter({ length: 251, width: 251, height: 10 })).toBe(false);
    });
  });
});
