// The pricing engine of merchant price lists: criteria over shipping facts, first-match base price, modifications.
import type { components } from "../../generated/api.ts";
import { fromCents, roundHalfAwayFromZero, toCents } from "../shared/money.ts";

type Schemas = components["schemas"];
export type ShippingFacts = Schemas["ShippingFacts"];
export type ShippingFactName = Schemas["ShippingFactName"];
export type RuleCriterion = Schemas["RuleCriterion"];
export type RuleOperator = Schemas["RuleOperator"];
export type ModificationRule = Schemas["ModificationRule"];
export type Price = Schemas["Price"];
/** What pricing needs of a price list: a stored `PriceList` and a `PriceListInput` both fit. */
export type PriceRules = Pick<Schemas["PriceListInput"], "fallback_price" | "pricing_rules" | "modification_rules">;
export type PricedList = PriceRules & Pick<Schemas["PriceListInput"], "currency" | "tax">;

export { validatePriceList } from "./rules-validation.ts";
export { FACT_KINDS, OPERATORS_BY_KIND, type FactKind } from "./fact-kinds.ts";

/**
 * One criterion against the facts. A null fact (no pickup point, no address) equals only `null`, is in no list
 * and contains nothing. Mismatched types never match: `validatePriceList` refuses them on write.
 */
export function matches(criterion: RuleCriterion, facts: ShippingFacts): boolean {
  const fact: unknown = facts[criterion.fact];
  const value = criterion.value;
  switch (criterion.op) {
    case "==": return fact === value;
    case "!=": return fact !== value;
    case "<": return typeof fact === "number" && typeof value === "number" && fact < value;
    case "<=": return typeof fact === "number" && typeof value === "number" && fact <= value;
    case ">": return typeof fact === "number" && typeof value === "number" && fact > value;
    case ">=": return typeof fact === "number" && typeof value === "number" && fact >= value;
    case "in": return Array.isArray(value) && (typeof fact === "string" || typeof fact === "number") && value.includes(fact);
    case "not_in": return Array.isArray(value) && !((typeof fact === "string" || typeof fact === "number") && value.includes(fact));
    case "contains":
      if (Array.isArray(fact)) return typeof value === "string" && fact.includes(value);
      return typeof fact === "string" && typeof value === "string" && fact.includes(value);
    default: return false;
  }
}

/** All criteria match (logical AND); an empty list always matches. */
export function evaluate(criteria: readonly RuleCriterion[], facts: ShippingFacts): boolean {
  return criteria.every((c) => matches(c, facts));
}

/** The spec's Price.gross maximum (100000), in cents: a larger result would make the answer violate the spec. */
export const MAX_PRICE_CENTS = 10_000_000;

/**
 * One modification applied to a price in cents. Rounding: half away from zero to whole cents after every step
 * (3.45 x 0.5 = 1.725 -> 1.73). Bounds: 0 and MAX_PRICE_CENTS after every step, so the price computed so far is
 * always a valid price and a later `add` starts from 0, not from a negative intermediate.
 */
export function applyModification(cents: number, rule: Pick<ModificationRule, "adjust" | "amount">): number {
  let next: number;
  switch (rule.adjust) {
    case "add": next = cents + toCents(rule.amount); break;
    case "multiply": next = roundHalfAwayFromZero(cents * rule.amount); break;
    case "set": next = toCents(rule.amount); break;
    default: next = cents;
  }
  return Math.min(MAX_PRICE_CENTS, Math.max(0, next));
}

/**
 * The fee in integer cents: the first pricing rule whose criteria all match sets the base price, else
 * `fallback_price`; then every matching modification rule adjusts it, in order.
 */
export function priceFor(list: PriceRules, facts: ShippingFacts): number {
  const base = (list.pricing_rules ?? []).find((rule) => evaluate(rule.criteria, facts));
  let cents = Math.max(0, toCents(base ? base.price : list.fallback_price));
  for (const rule of list.modification_rules ?? []) {
    if (evaluate(rule.criteria, facts)) cents = applyModification(cents, rule);
  }
  return cents;
}

/** The wire `Price` of a list for these facts: gross with VAT included, the list's currency and VAT %. */
export function priceOf(list: PricedList, facts: ShippingFacts): Price {
  return { gross: fromCents(priceFor(list, facts)), currency: list.currency, tax: list.tax };
}
