// The price list editor's draft: what the form holds as typed (numbers as text, list values comma-separated),
// and its conversion to the API's PriceListInput. Values are sent as typed when they do not parse, so that the
// API's own validation names them.
import { FACT_KINDS, OPERATORS_BY_KIND } from "../../../client/index.ts";
import type { S } from "../api.ts";

export type Fact = S["ShippingFactName"];
export type Op = S["RuleOperator"];
export const FACTS = Object.keys(FACT_KINDS) as Fact[];
export const operatorsOf = (fact: Fact): readonly Op[] => OPERATORS_BY_KIND[FACT_KINDS[fact]];

export interface CriterionDraft {
  fact: Fact;
  op: Op;
  text: string;
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

const numberOrText = (text: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);

export function valueOf(c: CriterionDraft): S["RuleValue"] {
  const kind = FACT_KINDS[c.fact];
  if (c.op === "in" || c.op === "not_in") {
    return c.text
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean)
      .map((v) => (kind === "number" ? numberOrText(v) : v));
  }
  if (kind === "boolean") return c.text === "true" ? true : c.text === "false" ? false : c.text;
  if (kind === "number") return numberOrText(c.text);
  return c.text;
}

const textOf = (v: S["RuleValue"]) => (Array.isArray(v) ? v.join(", ") : v === null ? "" : String(v));
const criteriaDraft = (cs: S["RuleCriterion"][]): CriterionDraft[] =>
  cs.map((c) => ({ fact: c.fact, op: c.op, text: textOf(c.value) }));

export function draftOf(list: S["PriceList"] | (S["PriceListInput"] & { id?: string })): ListDraft {
  return {
    id: list.id,
    name: list.name,
    method: list.method,
    currency: list.currency,
    tax: String(list.tax),
    fallback_price: String(list.fallback_price),
    pricing_rules: (list.pricing_rules ?? []).map((r) => ({
      key: nextKey(),
      description: r.description ?? "",
      criteria: criteriaDraft(r.criteria),
      price: String(r.price),
    })),
    modification_rules: (list.modification_rules ?? []).map((r) => ({
      key: nextKey(),
      description: r.description ?? "",
      criteria: criteriaDraft(r.criteria),
      adjust: r.adjust,
      amount: String(r.amount),
    })),
  };
}

export const newDraft = (method: S["ShippingMethodType"]): ListDraft => ({
  name: { letter: "Letter", home: "Home delivery", pickup: "Pickup" }[method],
  method,
  currency: "EUR",
  tax: "25.5",
  fallback_price: "0",
  pricing_rules: [],
  modification_rules: [],
});

/** The API body of a draft; what does not parse goes as typed, for the API to name. */
export function inputOf(d: ListDraft): S["PriceListInput"] {
  const criteria = (cs: CriterionDraft[]) => cs.map((c) => ({ fact: c.fact, op: c.op, value: valueOf(c) }));
  const description = (text: string) => (text.trim() ? { description: text.trim() } : {});
  return {
    name: d.name,
    method: d.method,
    currency: d.currency as S["CurrencyCode"],
    tax: numberOrText(d.tax) as number,
    fallback_price: numberOrText(d.fallback_price) as number,
    pricing_rules: d.pricing_rules.map((r) => ({
      ...description(r.description),
      criteria: criteria(r.criteria),
      price: numberOrText(r.price) as number,
    })),
    modification_rules: d.modification_rules.map((r) => ({
      ...description(r.description),
      criteria: criteria(r.criteria),
      adjust: r.adjust,
      amount: numberOrText(r.amount) as number,
    })),
  };
}

/** Moves item `i` of a list by `by` places (the order of rules matters). */
/** The edits of item i of a rule list (change fields, move up or down, remove), each writing the new list. */
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
