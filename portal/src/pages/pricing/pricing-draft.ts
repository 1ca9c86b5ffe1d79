// The price list editor's draft: what the form holds as typed (numbers as text, in the units the editor shows:
// kilograms for the API's grams), and its conversion to the API's PriceListInput and back. What does not parse is
// sent as typed, so that the API's own check names it next to its field.
import { FACT_KINDS, OPERATORS_BY_KIND } from "../../../../client/index.ts";
import type { S } from "../../api.ts";
import type { RuleOperator, ShippingFactName } from "../../../../generated/api.ts";
import { gramsFromKg, kgFromGrams } from "../../parts/weight.ts";

export const FACTS = Object.keys(FACT_KINDS) as ShippingFactName[];
export const operatorsOf = (fact: ShippingFactName): readonly RuleOperator[] => OPERATORS_BY_KIND[FACT_KINDS[fact]];

/** Facts whose values are chosen from a list (chains from the directory, countries, methods). */
export const CHOSEN = new Set<ShippingFactName>(["pup.branch", "customer.country", "order.shipping_type"]);
/** Facts the editor shows in another unit than the API's: an order's weight in kilograms (the API's grams). */
const IN_KG = new Set<ShippingFactName>(["order.total_weight"]);

export interface CriterionDraft {
  fact: ShippingFactName;
  op: RuleOperator;
  /** A typed or chosen value; for a list of typed values, separated by `;` or `,`. */
  text: string;
  /** The values chosen for `is one of` / `is none of` on a fact with a list of values. */
  chosen: string[];
  /** The API's `null` (only kept as loaded: "no pickup point is chosen"). */
  isNull?: boolean;
}
export interface PricingRuleDraft {
  key: number;
  description: string;
  criteria: CriterionDraft[];
  price: string;
}
export interface ModificationDraft {
  key: number;
  description: string;
  criteria: CriterionDraft[];
  adjust: S["ModificationRule"]["adjust"];
  amount: string;
}
export interface ListDraft {
  id?: string;
  name: string;
  method: S["ShippingMethodType"];
  currency: string;
  tax: string;
  fallback_price: string;
  pricing_rules: PricingRuleDraft[];
  modification_rules: ModificationDraft[];
}

let keys = 0;
export const nextKey = () => ++keys;

const isList = (op: RuleOperator) => op === "in" || op === "not_in";
/** "12.5" and "12,5" are numbers; anything else stays text for the API to name. */
export const numberOrText = (text: string): number | string => {
  const t = text.trim().replace(",", ".");
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : text;
};
/** Shown units to the API's, by the one conversion (1.2 kg is 1200 g, not 1199.9999999999998). */
const toApi = (fact: ShippingFactName, text: string): number | string => {
  const n = numberOrText(text);
  return typeof n === "number" && IN_KG.has(fact) ? gramsFromKg(n) : n;
};
const fromApi = (fact: ShippingFactName, v: string | number | boolean | null): string =>
  typeof v === "number" ? String(IN_KG.has(fact) ? kgFromGrams(v) : v) : v === null ? "" : String(v);
const splitList = (text: string) =>
  text
    .split(/\s*[;,]\s*/)
    .map((v) => v.trim())
    .filter(Boolean);

export function valueOf(c: CriterionDraft): S["RuleValue"] {
  if (c.isNull) return null;
  const kind = FACT_KINDS[c.fact];
  if (CHOSEN.has(c.fact) && c.op !== "contains") return isList(c.op) ? c.chosen : c.text;
  if (kind === "boolean") return c.text === "true";
  if (kind === "number") return isList(c.op) ? splitList(c.text).map((v) => toApi(c.fact, v)) : toApi(c.fact, c.text);
  return isList(c.op) ? splitList(c.text) : c.text;
}

export function criterionDraft(c: S["RuleCriterion"]): CriterionDraft {
  const values = Array.isArray(c.value) ? c.value : [];
  return {
    fact: c.fact,
    op: c.op,
    text: Array.isArray(c.value) ? values.map((v) => fromApi(c.fact, v)).join("; ") : fromApi(c.fact, c.value),
    chosen: values.map(String),
    ...(c.value === null && { isNull: true }),
  };
}

/** A new criterion of `fact`: its first operator and a value to start from (the first of the list, if any). */
export function newCriterion(fact: ShippingFactName, first = ""): CriterionDraft {
  const op = fact === "order.total_weight" ? ">" : operatorsOf(fact)[0]!;
  return { fact, op, text: FACT_KINDS[fact] === "boolean" ? "true" : CHOSEN.has(fact) ? first : "", chosen: [] };
}

/** Money as a person writes it: 3.9 is "3.90". */
const cents = (n: number) => n.toFixed(2);

export function draftOf(list: S["PriceList"] | (S["PriceListInput"] & { id?: string })): ListDraft {
  return {
    id: list.id,
    name: list.name,
    method: list.method,
    currency: list.currency,
    tax: String(list.tax),
    fallback_price: cents(list.fallback_price),
    pricing_rules: (list.pricing_rules ?? []).map((r) => ({
      key: nextKey(),
      description: r.description ?? "",
      criteria: r.criteria.map(criterionDraft),
      price: cents(r.price),
    })),
    modification_rules: (list.modification_rules ?? []).map((r) => ({
      key: nextKey(),
      description: r.description ?? "",
      criteria: r.criteria.map(criterionDraft),
      adjust: r.adjust,
      amount: r.adjust === "multiply" ? String(r.amount) : cents(r.amount),
    })),
  };
}

/** A list for a method that has none yet; named by the method's words. */
export const newDraft = (method: S["ShippingMethodType"], name: string): ListDraft => ({
  name,
  method,
  currency: "EUR",
  tax: "25.5",
  fallback_price: "0.00",
  pricing_rules: [],
  modification_rules: [],
});

export const criteriaOf = (cs: CriterionDraft[]): S["RuleCriterion"][] =>
  cs.map((c) => ({ fact: c.fact, op: c.op, value: valueOf(c) }));

/** The API body of a draft; what does not parse goes as typed, for the API to name. */
export function inputOf(d: ListDraft): S["PriceListInput"] {
  const description = (text: string) => (text.trim() ? { description: text.trim() } : {});
  return {
    name: d.name,
    method: d.method,
    currency: d.currency as S["CurrencyCode"],
    tax: numberOrText(d.tax) as number,
    fallback_price: numberOrText(d.fallback_price) as number,
    pricing_rules: d.pricing_rules.map((r) => ({
      ...description(r.description),
      criteria: criteriaOf(r.criteria),
      price: numberOrText(r.price) as number,
    })),
    modification_rules: d.modification_rules.map((r) => ({
      ...description(r.description),
      criteria: criteriaOf(r.criteria),
      adjust: r.adjust,
      amount: numberOrText(r.amount) as number,
    })),
  };
}

/** The edits of item i of a list (change fields, move up or down, remove), each writing the new list. */
export function itemEdits<T>(items: T[], i: number, write: (items: T[]) => void) {
  return {
    set: (patch: Partial<T>) => write(items.map((x, j) => (j === i ? { ...x, ...patch } : x))),
    move: (by: number) => {
      const j = i + by;
      if (j < 0 || j >= items.length) return;
      const copy = [...items];
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      write(copy);
    },
    remove: () => write(items.filter((_, j) => j !== i)),
  };
}

/** The JSON pointers of every field the editor shows for a draft: where an answer's messages can stand. */
export function fieldPaths(d: ListDraft): string[] {
  const paths = ["/body/name", "/body/currency", "/body/tax", "/body/fallback_price"];
  const criteria = (at: string, cs: CriterionDraft[]) =>
    cs.forEach((_, j) => paths.push(...["fact", "op", "value"].map((f) => `${at}/criteria/${j}/${f}`)));
  d.pricing_rules.forEach((r, i) => {
    const at = `/body/pricing_rules/${i}`;
    paths.push(`${at}/description`, `${at}/price`);
    criteria(at, r.criteria);
  });
  d.modification_rules.forEach((r, i) => {
    const at = `/body/modification_rules/${i}`;
    paths.push(`${at}/description`, `${at}/adjust`, `${at}/amount`);
    criteria(at, r.criteria);
  });
  return paths;
}
