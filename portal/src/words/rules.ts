// Price list rules in words: a criterion as a sentence ("Order weight is over 10 kg"), a rule check of a price
// trace ("Order weight is over 10 kg: no (it is 1 kg)"), a whole trace as steps, a modification's adjustment.
// Weights are grams in the API and shown in kilograms from 1 kg; chains, countries and methods by name.
import type { RuleOperator, RuleValue, ShippingFactName } from "../../../generated/api.ts";
import type { S } from "../api.ts";
import { FACT_KINDS } from "../../../client/rules.ts";
import type { Catalogue } from "./catalogue.ts";
import { CATALOGUES } from "./catalogues.ts";
import { CHAINS, type Adjust } from "./codes.ts";
import { formatMoney, formatNumber, formatUnit, formatVolume, formatWeight, lowerFirst, upperFirst } from "./format.ts";
import { speakerOf, type Lang, type Speaker } from "./lang.ts";

type Who = Lang | Speaker;

/** A pickup point branch by its chain's name: fi.posti is "Posti"; an unknown se.some_chain is "Some chain". */
export function branchName(branch: string): string {
  const known = CHAINS[branch];
  if (known) return known;
  const name = branch.split(".").slice(1).join(" ").replace(/[_-]+/g, " ").trim();
  return name ? upperFirst(name) : branch.toUpperCase();
}

/** A country by its name in the speaker's language: "FI" is "Finland", "Suomi", "Finland". */
export function countryName(who: Who, code: string): string {
  try {
    return new Intl.DisplayNames([speakerOf(who).locale], { type: "region" }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** One value a fact can take, in words: 10000 grams "10 kg", "fi.posti" "Posti", "FI" "Finland", "vip" “vip”. */
export function factValue(who: Who, fact: ShippingFactName, value: unknown): string {
  const t = CATALOGUES[speakerOf(who).lang];
  if (value === null || value === undefined) return t.none;
  if (typeof value === "boolean") return lowerFirst(value ? t.yesNo.yes : t.yesNo.no);
  if (typeof value === "number") {
    switch (fact) {
      case "order.total_weight":
        return formatWeight(who, value);
      case "order.total_volume":
        return formatVolume(who, value);
      case "order.total_eur":
        return formatMoney(who, value, "EUR");
      default:
        return formatNumber(who, value);
    }
  }
  if (Array.isArray(value)) return value.map((v) => factValue(who, fact, v)).join(", ");
  const text = typeof value === "string" ? value : JSON.stringify(value);
  switch (fact) {
    case "pup.branch":
      return branchName(text);
    case "customer.country":
      return countryName(who, text);
    case "order.shipping_type":
      return text in t.methods ? lowerFirst(t.methods[text as S["ShippingMethodType"]]) : t.condition.quote(text);
    default:
      return t.condition.quote(text);
  }
}

/** An operator as the rule editor offers it for this fact: "is over", "has the tag". */
export function operatorLabel(who: Who, op: RuleOperator, fact?: ShippingFactName): string {
  const t = CATALOGUES[speakerOf(who).lang];
  return fact === "order.tags" && op === "contains" ? t.hasTag : t.operators[op];
}

/** A criterion as a sentence: "Order weight is over 10 kg", "Pickup point chain is Posti". */
export function describeCondition(who: Who, fact: ShippingFactName, op: RuleOperator, value: RuleValue): string {
  const t = CATALOGUES[speakerOf(who).lang];
  const words = t.facts[fact];
  const c = t.condition;
  if (value === null && (op === "==" || op === "!=")) {
    const sentence = op === "==" ? words.unset : words.set;
    if (sentence) return sentence;
  }
  if (FACT_KINDS[fact] === "boolean" && typeof value === "boolean" && (op === "==" || op === "!=")) {
    const holds = (op === "==") === value;
    const sentence = holds ? words.yes : words.no;
    if (sentence) return sentence;
  }
  if (words.has && op === "contains" && typeof value === "string") return words.has(c.quote(value));
  if (op === "in" || op === "not_in") {
    const values = (Array.isArray(value) ? value : [value]).map((v) => factValue(who, fact, v));
    return c[op](words.label, values);
  }
  if (op === "contains") return c.ops.contains(words.label, c.quote(String(value)));
  return c.ops[op](words.label, factValue(who, fact, value));
}

/** All of a rule's criteria: "Order weight is over 10 kg and customer's country is Finland"; "Always". */
export function describeCriteria(who: Who, criteria: readonly S["RuleCriterion"][]): string {
  const t = CATALOGUES[speakerOf(who).lang];
  if (criteria.length === 0) return t.condition.always;
  return t.condition.all(
    criteria.map((c, i) => {
      const sentence = describeCondition(who, c.fact, c.op, c.value);
      return i === 0 ? sentence : lowerFirst(sentence);
    }),
  );
}

/**
 * A rule check: the criterion and whether it held, with the fact's value when it did not: "Order weight is over
 * 10 kg: no (it is 1 kg)", "Pickup point chain is Posti: no (no pickup point is chosen)".
 */
export function describeCheck(who: Who, criterion: S["RuleCriterion"], actual: unknown, matched = false): string {
  const t = CATALOGUES[speakerOf(who).lang];
  const c = t.condition;
  const condition = describeCondition(who, criterion.fact, criterion.op, criterion.value);
  if (matched) return c.yes(condition);
  const words = t.facts[criterion.fact];
  if (FACT_KINDS[criterion.fact] === "boolean" && (words.yes || words.no)) return c.no(condition);
  if (actual === null || actual === undefined) {
    return words.unset ? c.noBecause(condition, lowerFirst(words.unset)) : c.no(condition, t.none);
  }
  if (Array.isArray(actual) && words.values && words.none !== undefined) {
    return c.noBecause(
      condition,
      actual.length ? words.values(actual.map((v) => c.quote(String(v))).join(", ")) : words.none,
    );
  }
  return c.no(condition, factValue(who, criterion.fact, actual));
}

/** A pricing step's one name, in the editor and in a price's explanation alike: "Pricing rule 2", "Price change 1"
 * (its item's title and its position from 1). */
export const stepName = (t: Catalogue, kind: "pricing_rule" | "modification_rule", index: number): string =>
  `${t.items[kind].title} ${index + 1}`;

export interface TraceStep {
  kind: "base" | "fallback" | "not_applied" | "applied" | "omitted";
  /** "Base price €5.90: pricing rule 2 “Posti points” applied", "Price change 1 did not apply". */
  text: string;
  /** For a rule that did not apply: its failed check ("Order weight is over 10 kg: no (it is 1 kg)"). */
  because?: string;
}

export interface TraceInput {
  trace: S["PriceTrace"];
  /** The method's price list as the answer explains it (`explanation.price_lists[method]`). */
  list: S["ExplainedPriceList"];
  /** The answer's facts; for a pickup point, with `pup.branch` its own branch. */
  facts: S["ShippingFacts"];
  /** The price's currency (the option's `price.currency`). */
  currency?: string;
}

/** Why a price is what it is: the base price and the rule that set it, the rules that did not apply and why,
 * each price change applied or not, and how many checks the answer left out. */
export function describeTrace(who: Who, { trace, list, facts, currency = "EUR" }: TraceInput): TraceStep[] {
  const t = CATALOGUES[speakerOf(who).lang];
  const money = (n: number) => formatMoney(who, n, currency);
  type Rule = { description?: string; criteria: S["RuleCriterion"][] };
  const name = (title: string, rule: Rule | undefined) =>
    rule?.description ? t.trace.named(title, rule.description) : title;
  const pricing = (i: number) => name(stepName(t, "pricing_rule", i), list.pricing_rules[i]);
  const modification = (i: number) => name(stepName(t, "modification_rule", i), list.modification_rules[i]);
  const because = (check: S["RuleCheck"], rule: Rule | undefined) => {
    const criterion = check.failed_criterion === null ? undefined : rule?.criteria[check.failed_criterion];
    return criterion && describeCheck(who, criterion, facts[criterion.fact]);
  };
  const withReason = (step: TraceStep, reason: string | undefined): TraceStep =>
    reason ? { ...step, because: reason } : step;

  const steps: TraceStep[] = [];
  const base = trace.base.rule_index;
  steps.push(
    base === null
      ? { kind: "fallback", text: t.trace.fallback(money(trace.base.gross)) }
      : { kind: "base", text: t.trace.base(money(trace.base.gross), lowerFirst(pricing(base))) },
  );
  for (const check of trace.pricing_rules) {
    if (check.matched) continue;
    steps.push(
      withReason(
        { kind: "not_applied", text: t.trace.notApplied(pricing(check.index)) },
        because(check, list.pricing_rules[check.index]),
      ),
    );
  }
  for (const check of trace.modification_rules) {
    steps.push(
      check.matched
        ? { kind: "applied", text: t.trace.applied(modification(check.index), money(check.gross_after ?? 0)) }
        : withReason(
            { kind: "not_applied", text: t.trace.notApplied(modification(check.index)) },
            because(check, list.modification_rules[check.index]),
          ),
    );
  }
  if (trace.rule_checks_omitted > 0) steps.push({ kind: "omitted", text: t.trace.omitted(trace.rule_checks_omitted) });
  return steps;
}

/** What a price change does: "Add €2.00", "Take off €1.00", "Multiply by 0.9 (10% off)", "Set the price to €0.00". */
export function describeAdjustment(who: Who, adjust: Adjust, amount: number, currency = "EUR"): string {
  const a = CATALOGUES[speakerOf(who).lang].adjustment;
  switch (adjust) {
    case "add":
      return amount < 0 ? a.subtract(formatMoney(who, -amount, currency)) : a.add(formatMoney(who, amount, currency));
    case "set":
      return a.set(formatMoney(who, amount, currency));
    case "multiply": {
      const factor = a.multiply(formatNumber(who, amount, 4));
      const change = Math.round(Math.abs(1 - amount) * 10000) / 100;
      if (change === 0) return factor;
      const percent = formatUnit(who, change, "percent");
      return `${factor} (${amount < 1 ? a.off(percent) : a.more(percent)})`;
    }
  }
}
