// One language's words with its locale bound, for a component (useWords) or anywhere else (words()).
import type { Catalogue } from "./catalogue.ts";
import { CATALOGUES } from "./catalogues.ts";
import type { Form } from "./fields.ts";
import { formatDate, formatDay, formatMoney, formatNumber, formatWeight } from "./format.ts";
import { browserLanguages, pickLocale, speakerOf, type Lang, type Speaker } from "./lang.ts";
import { answerMessage, fieldMessage, problemsIn, type Problems } from "./problems.ts";
import {
  branchName,
  countryName,
  describeAdjustment,
  describeCheck,
  describeCondition,
  describeCriteria,
  describeTrace,
  factValue,
  operatorLabel,
  type TraceInput,
  type TraceStep,
} from "./rules.ts";
import type { ErrorDetail, RuleOperator, RuleValue, ShippingFactName } from "../../../generated/api.ts";

/** One language's words with its locale bound: what a component needs. */
export interface Words {
  lang: Lang;
  locale: string;
  /** The catalogue itself: t.statuses.en_route, t.methods.pickup, t.eventTypes["webhook.test"], ... */
  t: Catalogue;
  /** The sentence for an answer's code (an AnswerCode; an unknown one says "something went wrong"). */
  answer(code: string, form?: Form): string;
  problems(error: unknown, form?: Form): Problems | undefined;
  field(detail: ErrorDetail, form?: Form): string;
  condition(fact: ShippingFactName, op: RuleOperator, value: RuleValue): string;
  criteria(criteria: Parameters<typeof describeCriteria>[1]): string;
  check(criterion: Parameters<typeof describeCheck>[1], actual: unknown, matched?: boolean): string;
  trace(input: TraceInput): TraceStep[];
  adjustment(adjust: Parameters<typeof describeAdjustment>[1], amount: number, currency?: string): string;
  factValue(fact: ShippingFactName, value: unknown): string;
  operator(op: RuleOperator, fact?: ShippingFactName): string;
  branch(branch: string): string;
  country(code: string): string;
  date(ts: string | number | Date | null | undefined): string;
  day(day: string | null | undefined): string;
  money(amount: number | null | undefined, currency?: string): string;
  number(n: number): string;
  weight(grams: number): string;
}

/**
 * The words for a language (its default locale), a speaker, or a list of the browser's languages (the first
 * that is en, fi or sv; English when none is). Without an argument, the browser's own languages.
 */
export function words(of: Lang | Speaker | readonly string[] = browserLanguages()): Words {
  const who: Speaker = Array.isArray(of) ? pickLocale(of) : speakerOf(of as Lang | Speaker);
  return {
    lang: who.lang,
    locale: who.locale,
    t: CATALOGUES[who.lang],
    answer: (code, form) => answerMessage(who, code, form),
    // eslint-disable-next-line no-restricted-syntax -- the catalogue's side of the one way (app/data.ts problemsOf)
    problems: (error, form) => problemsIn(who, error, form),
    field: (detail, form) => fieldMessage(who, detail, form),
    condition: (fact, op, value) => describeCondition(who, fact, op, value),
    criteria: (criteria) => describeCriteria(who, criteria),
    check: (criterion, actual, matched) => describeCheck(who, criterion, actual, matched),
    trace: (input) => describeTrace(who, input),
    adjustment: (adjust, amount, currency) => describeAdjustment(who, adjust, amount, currency),
    factValue: (fact, value) => factValue(who, fact, value),
    operator: (op, fact) => operatorLabel(who, op, fact),
    branch: branchName,
    country: (code) => countryName(who, code),
    date: (ts) => formatDate(who, ts),
    day: (day) => formatDay(who, day),
    money: (amount, currency) => formatMoney(who, amount, currency),
    number: (n) => formatNumber(who, n),
    weight: (grams) => formatWeight(who, grams),
  };
}
