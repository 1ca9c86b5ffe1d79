// The value rules registry (server/value-rules.ts): every entry is an implemented operation, and every rule reads
// any input at all without throwing (they also run beside a failed schema check, on whatever was sent).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IMPLEMENTED } from "../../server/handlers.ts";
import { VALUE_RULES } from "../../server/value-rules.ts";

const rules = Object.entries(VALUE_RULES);

/** Values shaped like requests, with the field names the rules look for, holding anything. */
const fieldNames = [
  "products",
  "products_all",
  "arrivals",
  "merchants_id",
  "gtin",
  "purchasePrice",
  "expected_at_wh",
  "ts",
  "status",
  "problems",
  "tax",
  "fallback_price",
  "pricing_rules",
  "modification_rules",
  "criteria",
  "fact",
  "op",
  "value",
  "price",
  "amount",
  "adjust",
  "price_lists",
  "method",
  "postalcode",
  "country",
  "cart_value",
  "__proto__",
  "constructor",
  "toString",
];
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: "small" },
    fc.anything(),
    fc.constantFrom("problem", "multiply", "set", "FI", "constructor", "2016-02-30", "6410405082658", "<", "in"),
    fc.double(),
    fc.array(tie("tree"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...fieldNames), tie("tree"), { maxKeys: 6 }),
  ),
}));

describe("the value rules registry", () => {
  it("names implemented operations only", () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const [id] of rules) expect(IMPLEMENTED.has(id), id).toBe(true);
  });

  it.each(rules)("%s never throws, whatever the body and query hold", (_id, rule) => {
    fc.assert(
      fc.property(tree, fc.dictionary(fc.constantFrom(...fieldNames), tree, { maxKeys: 4 }), (body, query) => {
        const details = rule({ body, query });
        expect(Array.isArray(details)).toBe(true);
        for (const d of details) expect(typeof d.path === "string" && typeof d.message === "string").toBe(true);
      }),
      { numRuns: 500, seed: 20150101 },
    );
  });
});
