// Postal codes in price rules: a rule's code is saved in its country's form (the country of a criterion
// `customer.country == X` or `in [X]` beside it; without one, upper case), and compared with the customer's in any
// spelling, so that a rule saved before codes were normalised, or one whose country is not said, still matches.
import type { components } from "../../generated/api.ts";
import { compactPostalCode, normalisePostalCode } from "../shared/postal-codes.ts";

type RuleCriterion = components["schemas"]["RuleCriterion"];
type Rule = { criteria: RuleCriterion[] };

/** The one country a rule's criteria pin the customer to, or "" (none, or several). */
function countryOf(criteria: readonly RuleCriterion[]): string {
  const countries = criteria.flatMap((c) => {
    if (c.fact !== "customer.country") return [];
    if (c.op === "==" && typeof c.value === "string") return [c.value];
    if (c.op === "in" && Array.isArray(c.value) && c.value.length === 1) return [String(c.value[0])];
    return [];
  });
  return new Set(countries).size === 1 ? countries[0]! : "";
}

const normaliseValue = (country: string, value: RuleCriterion["value"]): RuleCriterion["value"] => {
  if (typeof value === "string") return normalisePostalCode(country, value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? normalisePostalCode(country, v) : v));
  return value;
};

/** `rules` with the value of every `customer.postalcode` criterion in its country's spelling (see above). */
export function normaliseRulePostalCodes<R extends Rule>(rules: readonly R[] | undefined): R[] {
  return (rules ?? []).map((rule) => {
    if (!rule.criteria.some((c) => c.fact === "customer.postalcode")) return rule;
    const country = countryOf(rule.criteria);
    return {
      ...rule,
      criteria: rule.criteria.map((c) =>
        c.fact === "customer.postalcode" && c.op !== "contains" ? { ...c, value: normaliseValue(country, c.value) } : c,
      ),
    };
  });
}

/** A `customer.postalcode` criterion against the customer's code, spaces, hyphens and case aside. */
export function matchesPostalCode(criterion: RuleCriterion, code: string | null): boolean {
  const value = criterion.value;
  const mine = code === null ? null : compactPostalCode(code);
  const same = (v: unknown) => mine !== null && typeof v === "string" && compactPostalCode(v) === mine;
  switch (criterion.op) {
    case "==":
      return same(value);
    case "!=":
      return !same(value);
    case "in":
      return Array.isArray(value) && value.some(same);
    case "not_in":
      return Array.isArray(value) && !value.some(same);
    case "contains":
      return mine !== null && typeof value === "string" && mine.includes(compactPostalCode(value));
    default:
      return false;
  }
}
