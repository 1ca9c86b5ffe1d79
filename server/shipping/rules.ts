// The pricing engine of merchant price lists: criteria over shipping facts, first-match base price, modifications.
import type { components } from "../../generated/api.ts";
import { fromCents, roundHalfAwayFromZero, toCents } from "../shared/money.ts";
import { matchesPostalCode } from "./rule-postal-codes.ts";

type Schemas = components["schemas"];
export type ShippingFacts = Schemas["ShippingFacts"];
export type ShippingFactName = Schemas["ShippingFactName"];
export type RuleCriterion = Schemas["RuleCriterion"];
export type RuleOperator = Schemas["RuleOperator"];
export type ModificationRule = Schemas["ModificationRule"];
export type Price = Schemas["Price"];
export type PriceTrace = Schemas["PriceTrace"];
type RuleCheck = Schemas["RuleCheck"];
/** What pricing needs of a price list: a stored `PriceList` and a `PriceListInput` both fit. */
export type PriceRules = Pick<Schemas["PriceListInput"], "fallback_price" | "pricing_rules" | "modification_rules">;
export type PricedList = PriceRules & Pick<Schemas["PriceListInput"], "currency" | "tax">;

export { validatePriceList } from "./rules-validation.ts";
export { FACT_KINDS, OPERATORS_BY_KIND, type FactKind } from "./vocabulary.ts";

/**
 * One criterion against the facts. A null fact (no pickup point, no address) equals only `null`, is in no list
 * and contains nothing. Mismatched types never match: `validatePriceList` refuses them on write.
 */
export function matches(criterion: RuleCriterion, facts: ShippingFacts): boolean {
  if (criterion.fact === "customer.postalcode") return matchesPostalCode(criterion, facts["customer.postalcode"]);
  const fact: unknown = facts[criterion.fact];
  const value = criterion.value;
  switch (criterion.op) {
    case "==":
      return fact === value;
    case "!=":
      return fact !== value;
    case "<":
      return typeof fact === "number" && typeof value === "number" && fact < value;
    case "<=":
      return typeof fact === "number" && typeof value === "number" && fact <= value;
    case ">":
      return typeof fact === "number" && typeof value === "number" && fact > value;
    case ">=":
      return typeof fact === "number" && typeof value === "number" && fact >= value;
    case "in":
      return Array.isArray(value) && (typeof fact === "string" || typeof fact === "number") && value.includes(fact);
    case "not_in":
      return Array.isArray(value) && !((typeof fact === "string" || typeof fact === "number") && value.includes(fact));
    case "contains":
      if (Array.isArray(fact)) return typeof value === "string" && fact.includes(value);
      return typeof fact === "string" && typeof value === "string" && fact.includes(value);
    default:
      return false;
  }
}

/** All criteria match (logical AND); an empty list always matches. */
export function evaluate(criteria: readonly RuleCriterion[], facts: ShippingFacts): boolean {
  return criteria.every((c) => matches(c, facts));
}

/** The position of the first criterion that does not match; -1 when all do (the rule applies). */
export function firstMismatch(criteria: readonly RuleCriterion[], facts: ShippingFacts): number {
  // A loop, not findIndex with a closure: this runs for every rule of every option and pickup point of an answer.
  for (let i = 0; i < criteria.length; i++) if (!matches(criteria[i]!, facts)) return i;
  return -1;
}

const ruleCheck = (index: number, failed: number): RuleCheck => ({
  index,
  matched: failed < 0,
  failed_criterion: failed < 0 ? null : failed,
});

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
    case "add":
      next = cents + toCents(rule.amount);
      break;
    case "multiply":
      next = roundHalfAwayFromZero(cents * rule.amount);
      break;
    case "set":
      next = toCents(rule.amount);
      break;
    default:
      next = cents;
  }
  return Math.min(MAX_PRICE_CENTS, Math.max(0, next));
}

/** What a trace records while a price is computed (a PriceTrace before the answer's budget cuts it). */
export type PriceSteps = Omit<PriceTrace, "rule_checks_omitted">;

/**
 * The fee in integer cents: the first pricing rule whose criteria all match sets the base price, else
 * `fallback_price`; then every matching modification rule adjusts it, in order. With `trace`, each rule
 * tested is recorded there as it is (one code path for the price and its explanation).
 */
export function priceFor(list: PriceRules, facts: ShippingFacts, trace?: PriceSteps): number {
  const rules = list.pricing_rules ?? [];
  let baseIndex = -1;
  for (let i = 0; i < rules.length; i++) {
    const failed = firstMismatch(rules[i]!.criteria, facts);
    trace?.pricing_rules.push(ruleCheck(i, failed));
    if (failed < 0) {
      baseIndex = i;
      break;
    }
  }
  let cents = Math.max(0, toCents(baseIndex >= 0 ? rules[baseIndex]!.price : list.fallback_price));
  if (trace)
    trace.base = {
      source: baseIndex >= 0 ? "pricing_rule" : "fallback_price",
      rule_index: baseIndex >= 0 ? baseIndex : null,
      gross: fromCents(cents),
    };
  const modifications = list.modification_rules ?? [];
  for (let i = 0; i < modifications.length; i++) {
    const rule = modifications[i]!;
    const failed = firstMismatch(rule.criteria, facts);
    if (failed < 0) cents = applyModification(cents, rule);
    trace?.modification_rules.push({
      ...ruleCheck(i, failed),
      ...(failed < 0 && { gross_after: fromCents(cents) }),
    });
  }
  return cents;
}

/** The wire `Price` of a list for these facts: gross with VAT included, the list's currency and VAT %. */
export function priceOf(list: PricedList, facts: ShippingFacts): Price {
  return { gross: fromCents(priceFor(list, facts)), currency: list.currency, tax: list.tax };
}

/** `priceOf` with how it was reached. */
export function explainedPriceOf(list: PricedList, facts: ShippingFacts): { price: Price; steps: PriceSteps } {
  const steps: PriceSteps = {
    base: { source: "fallback_price", rule_index: null, gross: 0 },
    pricing_rules: [],
    modification_rules: [],
  };
  const cents = priceFor(list, facts, steps);
  return { price: { gross: fromCents(cents), currency: list.currency, tax: list.tax }, steps };
}
