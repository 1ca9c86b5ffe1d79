// The bound on an explained answer: traces said once, at most MAX_RULE_CHECKS rule checks in all.
import { describe, expect, it } from "vitest";
import { MAX_RULE_CHECKS, TraceBook } from "../../server/shipping/explanation.ts";
import type { MethodPriceList } from "../../server/shipping/methods.ts";
import type { PriceSteps } from "../../server/shipping/rules.ts";

const pickup: MethodPriceList = {
  method: "pickup",
  name: "pickup prices",
  currency: "EUR",
  tax: 25.5,
  fallback_price: 4.9,
  pricing_rules: [],
  modification_rules: [],
};

/** 100 pricing and 100 modification checks, made distinct by which criterion failed. */
const steps = (variant: number): PriceSteps => ({
  base: { source: "fallback_price", rule_index: null, gross: 4.9 },
  pricing_rules: Array.from({ length: 100 }, (_, index) => ({ index, matched: false, failed_criterion: variant % 20 })),
  modification_rules: Array.from({ length: 100 }, (_, index) => ({
    index,
    matched: false,
    failed_criterion: Math.floor(variant / 20),
  })),
});

describe("TraceBook", () => {
  it("shares an equal trace, and lists at most 1000 rule checks in all, counting what it left out", () => {
    const book = new TraceBook();
    expect(book.refer(pickup, steps(0))).toBe(0);
    expect(book.refer(pickup, steps(0))).toBe(0);
    const refs = Array.from({ length: 50 }, (_, i) => book.refer(pickup, steps(i + 1)));
    expect(refs).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const e = book.explanation();
    expect(e.traces).toHaveLength(51);
    const listed = e.traces.reduce((n, t) => n + t.pricing_rules.length + t.modification_rules.length, 0);
    expect(listed).toBe(MAX_RULE_CHECKS);
    expect(e.rule_checks_omitted).toBe(51 * 200 - MAX_RULE_CHECKS);
    expect(e.traces.map((t) => t.rule_checks_omitted).reduce((a, b) => a + b)).toBe(e.rule_checks_omitted);
    // The base price is always exact, however much was left out.
    expect(e.traces[50]).toEqual({ ...steps(50), pricing_rules: [], modification_rules: [], rule_checks_omitted: 200 });
    expect(e.price_lists).toEqual({
      pickup: { id: null, name: "pickup prices", pricing_rules: [], modification_rules: [] },
    });
  });
});
