import { describe, expect, it } from "vitest";
import type { components } from "../../generated/api.ts";
import { genericFacts } from "../../server/shipping/facts.ts";
import {
  applyModification,
  evaluate,
  FACT_KINDS,
  matches,
  priceFor,
  priceOf,
  validatePriceList,
  type RuleCriterion,
  type ShippingFacts,
} from "../../server/shipping/rules.ts";
import { specSchema } from "../../server/shared/spec-schemas.ts";

type PriceListInput = components["schemas"]["PriceListInput"];

const base = genericFacts({ postalcode: "20780", country: "FI" }, { max_weight_g: 2000 });
const facts = (over: Partial<ShippingFacts> = {}): ShippingFacts => ({ ...base, ...over });
const c = (fact: string, op: string, value: unknown) => ({ fact, op, value }) as RuleCriterion;
const list = (over: Partial<PriceListInput> = {}): PriceListInput => ({
  name: "Test",
  method: "pickup",
  currency: "EUR",
  tax: 25.5,
  fallback_price: 4.9,
  ...over,
});

describe("matches", () => {
  const f = facts({
    "pup.branch": "fi.posti",
    "customer.address": "Piispanlähteenkatu 5",
    "order.tags": ["vip", "campaign"],
    "order.total_weight": 2000,
    "order.total_eur": 39.8,
    "order.letter_possible": true,
    "order.item_count": 2,
  });
  it.each([
    [c("order.total_weight", "<=", 2000), true],
    [c("order.total_weight", "<", 2000), false],
    [c("order.total_weight", ">", 1999.5), true],
    [c("order.total_weight", ">=", 2001), false],
    [c("order.total_eur", "==", 39.8), true],
    [c("order.item_count", "!=", 2), false],
    [c("customer.country", "==", "FI"), true],
    [c("customer.country", "!=", "SE"), true],
    [c("customer.country", "in", ["SE", "FI"]), true],
    [c("customer.country", "not_in", ["SE", "FI"]), false],
    [c("customer.postalcode", "in", ["20780", "00100"]), true],
    [c("order.item_count", "in", [1, 2]), true],
    [c("order.tags", "contains", "vip"), true],
    [c("order.tags", "contains", "vi"), false],
    [c("customer.address", "contains", "lähteen"), true],
    [c("customer.postalcode", "contains", "207"), true],
    [c("pup.branch", "==", "fi.posti"), true],
    [c("pup.branch", "==", null), false],
    [c("order.letter_possible", "==", true), true],
    [c("order.letter_possible", "!=", true), false],
    [c("order.shipping_type", "==", null), true],
    [c("order.shipping_type", "==", "pickup"), false],
  ])("%j -> %s", (criterion, expected) => {
    expect(matches(criterion, f)).toBe(expected);
  });

  it("treats a null fact as equal only to null, in no list and containing nothing", () => {
    const g = facts(); // pup.branch and customer.address null
    expect(matches(c("pup.branch", "==", null), g)).toBe(true);
    expect(matches(c("pup.branch", "!=", "fi.posti"), g)).toBe(true);
    expect(matches(c("pup.branch", "in", ["fi.posti"]), g)).toBe(false);
    expect(matches(c("pup.branch", "not_in", ["fi.posti"]), g)).toBe(true);
    expect(matches(c("customer.address", "contains", ""), g)).toBe(false);
  });

  it("never matches mismatched types (validation refuses them on write)", () => {
    expect(matches(c("order.total_weight", "==", "0"), facts())).toBe(false);
    expect(matches(c("customer.country", "<", 5), facts())).toBe(false);
    expect(matches(c("order.total_weight", "contains", 0), facts())).toBe(false);
  });

  it("evaluate is a logical AND, and an empty list always matches", () => {
    expect(evaluate([], facts())).toBe(true);
    expect(evaluate([c("customer.country", "==", "FI"), c("order.total_weight", "<=", 0)], facts())).toBe(true);
    expect(evaluate([c("customer.country", "==", "FI"), c("order.total_weight", ">", 0)], facts())).toBe(false);
  });
});

describe("priceFor", () => {
  const pickup = list({
    fallback_price: 4.9,
    pricing_rules: [
      { criteria: [c("pup.branch", "==", "fi.posti")], price: 3.9 },
      { criteria: [c("order.total_weight", ">", 10000)], price: 9.9 },
      { criteria: [c("pup.branch", "==", "fi.posti")], price: 1 }, // never reached: an earlier rule matches first
    ],
    modification_rules: [
      { criteria: [c("order.tags", "contains", "vip"), c("customer.country", "in", ["FI"])], adjust: "set", amount: 0 },
    ],
  });

  it("takes the first pricing rule whose criteria all match, else the fallback", () => {
    expect(priceFor(pickup, facts({ "pup.branch": "fi.posti" }))).toBe(390);
    expect(priceFor(pickup, facts({ "pup.branch": "fi.posti", "order.total_weight": 20000 }))).toBe(390);
    expect(priceFor(pickup, facts({ "pup.branch": "fi.matkahuolto", "order.total_weight": 20000 }))).toBe(990);
    expect(priceFor(pickup, facts({ "pup.branch": "fi.matkahuolto" }))).toBe(490);
    expect(priceFor(list({ fallback_price: 5.9 }), facts())).toBe(590);
  });

  it("prices per branch, and a matching modification applies to every branch", () => {
    expect(priceOf(pickup, facts({ "pup.branch": "fi.posti" }))).toEqual({ gross: 3.9, currency: "EUR", tax: 25.5 });
    expect(priceOf(pickup, facts({ "pup.branch": "fi.db_schenker" }))).toEqual({
      gross: 4.9,
      currency: "EUR",
      tax: 25.5,
    });
    expect(priceFor(pickup, facts({ "pup.branch": "fi.posti", "order.tags": ["vip"] }))).toBe(0);
  });

  it("applies every matching modification in order", () => {
    const l = list({
      fallback_price: 10,
      modification_rules: [
        { criteria: [], adjust: "add", amount: 2 }, // 12.00
        { criteria: [c("order.tags", "contains", "none")], adjust: "set", amount: 99 }, // does not match
        { criteria: [], adjust: "multiply", amount: 0.5 }, // 6.00
        { criteria: [c("customer.country", "==", "FI")], adjust: "add", amount: -1.1 }, // 4.90
      ],
    });
    expect(priceFor(l, facts())).toBe(490);
    const reversed = list({
      fallback_price: 10,
      modification_rules: [
        { criteria: [], adjust: "multiply", amount: 0.5 },
        { criteria: [], adjust: "add", amount: 2 },
      ],
    });
    expect(priceFor(reversed, facts())).toBe(700);
  });

  it("rounds to whole cents half away from zero after each step", () => {
    expect(applyModification(345, { adjust: "multiply", amount: 0.5 })).toBe(173); // 172.5 -> 173
    expect(applyModification(335, { adjust: "multiply", amount: 0.5 })).toBe(168); // 167.5 -> 168 (banker's: 168)
    expect(applyModification(325, { adjust: "multiply", amount: 0.5 })).toBe(163); // 162.5 -> 163 (banker's: 162)
    expect(applyModification(490, { adjust: "multiply", amount: 1.255 })).toBe(615); // 614.95 -> 615
    expect(applyModification(100, { adjust: "multiply", amount: 1 / 3 })).toBe(33);
    const l = list({ fallback_price: 3.45, modification_rules: [{ criteria: [], adjust: "multiply", amount: 0.5 }] });
    expect(priceOf(l, facts()).gross).toBe(1.73);
  });

  it("never goes below zero, at any step", () => {
    expect(applyModification(490, { adjust: "add", amount: -10 })).toBe(0);
    const l = list({
      fallback_price: 5,
      modification_rules: [
        { criteria: [], adjust: "add", amount: -10 }, // 0, not -5
        { criteria: [], adjust: "add", amount: 3 }, // 3
      ],
    });
    expect(priceFor(l, facts())).toBe(300);
    expect(
      priceOf(list({ fallback_price: 1, modification_rules: [{ criteria: [], adjust: "add", amount: -2 }] }), facts())
        .gross,
    ).toBe(0);
  });

  it("never exceeds the spec's maximum price (100000)", () => {
    expect(applyModification(10_000_000, { adjust: "multiply", amount: 2 })).toBe(10_000_000);
    expect(
      priceOf(
        list({ fallback_price: 99_999, modification_rules: [{ criteria: [], adjust: "multiply", amount: 1000 }] }),
        facts(),
      ).gross,
    ).toBe(100_000);
  });

  it("copies currency and VAT % into the price; gross is VAT-inclusive as given", () => {
    expect(priceOf(list({ currency: "SEK", tax: 25, fallback_price: 59 }), facts())).toEqual({
      gross: 59,
      currency: "SEK",
      tax: 25,
    });
  });
});

describe("validatePriceList", () => {
  const paths = (input: PriceListInput) => validatePriceList(input, "/body").map((d) => [d.path, d.code]);
  const rule = (...criteria: RuleCriterion[]) => list({ pricing_rules: [{ criteria, price: 1 }] });

  it("accepts the spec's examples and every sensible operator per fact kind", () => {
    expect(
      validatePriceList(
        list({
          pricing_rules: [
            { criteria: [c("pup.branch", "==", "fi.posti")], price: 3.9 },
            { criteria: [c("order.total_weight", ">", 10000)], price: 9.9 },
            {
              criteria: [c("order.shipping_type", "in", ["home", "pickup"]), c("customer.country", "not_in", ["SE"])],
              price: 2,
            },
            {
              criteria: [
                c("customer.address", "==", null),
                c("order.letter_possible", "!=", false),
                c("order.item_count", "in", [1, 2]),
              ],
              price: 2,
            },
            { criteria: [c("customer.postalcode", "contains", "207"), c("order.total_eur", ">=", 49.9)], price: 0 },
          ],
          modification_rules: [
            {
              criteria: [c("order.tags", "contains", "vip"), c("customer.country", "in", ["FI"])],
              adjust: "set",
              amount: 0,
            },
            { criteria: [], adjust: "multiply", amount: 1.255 },
            { criteria: [], adjust: "add", amount: -0.5 },
          ],
        }),
      ),
    ).toEqual([]);
  });

  it("names an unknown fact", () => {
    const details = validatePriceList(rule(c("order.weight", "<", 5)), "/body");
    expect(details).toEqual([
      expect.objectContaining({ path: "/body/pricing_rules/0/criteria/0/fact", code: "unknown_fact" }),
    ]);
    expect(details[0]!.message).toContain("order.weight");
  });

  it.each([
    ["<", "customer.country", "FI"],
    ["<=", "customer.postalcode", "20780"],
    [">", "pup.branch", "fi.posti"],
    ["contains", "order.total_weight", 5],
    ["contains", "order.letter_possible", true],
    ["==", "order.tags", "vip"],
    ["in", "order.tags", ["vip"]],
    ["<", "order.letter_possible", 1],
    ["in", "order.letter_possible", [1]],
  ])("refuses %s on %s", (op, fact, value) => {
    expect(paths(rule(c(fact, op, value)))).toEqual([
      ["/body/pricing_rules/0/criteria/0/op", "operator_not_applicable"],
    ]);
  });

  it.each([
    ["order.total_weight", "<=", "2000", "/value"],
    ["order.total_weight", "==", "2000", "/value"],
    ["order.letter_possible", "==", "true", "/value"],
    ["customer.country", "==", "fi", "/value"],
    ["customer.country", "==", null, "/value"],
    ["order.shipping_type", "==", "express", "/value"],
    ["pup.branch", "==", "Posti", "/value"],
    ["customer.country", "in", "FI", "/value"],
    ["customer.country", "in", ["FI", "sweden"], "/value/1"],
    ["order.item_count", "==", 1.5, "/value"],
    ["order.tags", "contains", 5, "/value"],
    ["customer.address", "contains", null, "/value"],
  ])("refuses %s %s %j at .../criteria/0%s", (fact, op, value, suffix) => {
    const details = validatePriceList(
      list({ modification_rules: [{ criteria: [c(fact, op, value)], adjust: "add", amount: 1 }] }),
      "/body",
    );
    expect(details.map((d) => d.path)).toEqual([`/body/modification_rules/0/criteria/0${suffix}`]);
  });

  it("refuses prices with more than two decimals, negative set prices and negative factors", () => {
    expect(
      paths(
        list({
          fallback_price: 4.999,
          pricing_rules: [{ criteria: [], price: 1.234 }],
          modification_rules: [
            { criteria: [], adjust: "add", amount: 0.001 },
            { criteria: [], adjust: "set", amount: -1 },
            { criteria: [], adjust: "multiply", amount: -0.5 },
            { criteria: [], adjust: "multiply", amount: 0.333333 },
          ],
        }),
      ),
    ).toEqual([
      ["/body/fallback_price", "decimals"],
      ["/body/pricing_rules/0/price", "decimals"],
      ["/body/modification_rules/0/amount", "decimals"],
      ["/body/modification_rules/1/amount", "minimum"],
      ["/body/modification_rules/2/amount", "minimum"],
    ]);
  });

  it("reports every problem, not only the first", () => {
    expect(
      validatePriceList(rule(c("nope", "==", 1), c("customer.country", "<", 1), c("order.total_eur", ">", "x"))).length,
    ).toBe(3);
  });
});

it("FACT_KINDS agrees with the spec's ShippingFacts schema", () => {
  const props = (specSchema("ShippingFacts") as { properties: Record<string, Record<string, unknown>> }).properties;
  expect(Object.keys(FACT_KINDS).sort()).toEqual(Object.keys(props).sort());
  const typeOf = (s: Record<string, unknown>): string[] => {
    if (typeof s.type === "string") return [s.type];
    if (typeof s.$ref === "string") return typeOf(specSchema(s.$ref.replace("#/$defs/", "") as never));
    if (Array.isArray(s.oneOf)) return (s.oneOf as Record<string, unknown>[]).flatMap(typeOf);
    return [];
  };
  const kindOf: Record<string, string> = {
    string: "string",
    number: "number",
    integer: "number",
    boolean: "boolean",
    array: "string_array",
  };
  for (const [name, kind] of Object.entries(FACT_KINDS)) {
    const types = typeOf(props[name]!).filter((t) => t !== "null");
    expect(
      types.map((t) => kindOf[t]),
      name,
    ).toEqual([kind]);
  }
});
