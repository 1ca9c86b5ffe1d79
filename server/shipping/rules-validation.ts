// Write-time checks of a price list beyond its JSON schema: every rule must be able to match something. The
// operations that take price lists run them as value rules (shippingValueRules in http.ts), with the schema check
// and also when it failed: they read the list as unknown, judge only the parts of the right type, and never throw.
import type { components } from "../../generated/api.ts";
import type { ErrorDetail } from "../shared/errors.ts";
import { fieldOf, isNumber, itemsOf } from "../shared/loose.ts";
import { hasAtMostTwoDecimals } from "../shared/money.ts";
import { schemaProblems, specValidator } from "../shared/spec-schemas.ts";
import { FACT_KINDS, OPERATORS_BY_KIND, type FactKind } from "./vocabulary.ts";

type RuleCriterion = components["schemas"]["RuleCriterion"];
type ShippingFactName = components["schemas"]["ShippingFactName"];

const OPERATORS = new Set(["==", "!=", "<", "<=", ">", ">=", "in", "not_in", "contains"]);
const KIND_WORDS: Record<FactKind, string> = {
  string: "a string",
  number: "a number",
  boolean: "a boolean",
  string_array: "a list of strings",
};
const isFact = (name: unknown): name is ShippingFactName => typeof name === "string" && Object.hasOwn(FACT_KINDS, name);

/** Problems of a value the fact itself could take (its schema in the spec's ShippingFacts). */
function factValueProblems(fact: ShippingFactName, value: unknown, path: string): ErrorDetail[] {
  const validate = specValidator(`ShippingFacts/properties/${fact}`);
  if (validate(value)) return [];
  return schemaProblems(validate.errors).map((p) => ({
    path: path + p.path,
    message: `${fact} can never be ${JSON.stringify(value)}: ${p.message}`,
    code: p.code,
  }));
}

function criterionProblems(c: unknown, at: string): ErrorDetail[] {
  const [fact, op, value] = [fieldOf(c, "fact"), fieldOf(c, "op"), fieldOf(c, "value")];
  // A criterion that is not an object, or lacks a part, is the schema's to report.
  if (fact === undefined || op === undefined || value === undefined) return [];
  if (!isFact(fact)) {
    return [
      {
        path: `${at}/fact`,
        code: "unknown_fact",
        message: `unknown fact ${JSON.stringify(fact)}; known facts: ${Object.keys(FACT_KINDS).join(", ")}`,
      },
    ];
  }
  if (typeof op !== "string" || !OPERATORS.has(op)) {
    return [
      {
        path: `${at}/op`,
        code: "enum",
        message: `unknown operator ${JSON.stringify(op)}; one of ${[...OPERATORS].join(" ")}`,
      },
    ];
  }
  const kind = FACT_KINDS[fact];
  const allowed = OPERATORS_BY_KIND[kind];
  if (!allowed.includes(op as RuleCriterion["op"])) {
    return [
      {
        path: `${at}/op`,
        code: "operator_not_applicable",
        message: `${op} cannot apply to ${fact} (${KIND_WORDS[kind]}); use one of ${allowed.join(" ")}`,
      },
    ];
  }
  const vAt = `${at}/value`;
  switch (op) {
    case "==":
    case "!=":
      return factValueProblems(fact, value, vAt);
    case "<":
    case "<=":
    case ">":
    case ">=":
      return typeof value === "number" && Number.isFinite(value)
        ? []
        : [{ path: vAt, code: "type", message: `${op} compares numbers: the value must be a number` }];
    case "in":
    case "not_in":
      if (!Array.isArray(value)) return [{ path: vAt, code: "type", message: `${op} needs an array of values` }];
      return value.flatMap((item, i) => factValueProblems(fact, item, `${vAt}/${i}`));
    case "contains":
      if (kind === "string_array") {
        const validate = specValidator(`ShippingFacts/properties/${fact}/items`);
        return validate(value)
          ? []
          : schemaProblems(validate.errors).map((p) => ({
              path: vAt + p.path,
              code: p.code,
              message: `${fact} can never contain ${JSON.stringify(value)}: ${p.message}`,
            }));
      }
      return typeof value === "string" ? [] : [{ path: vAt, code: "type", message: "contains needs a string value" }];
  }
  return [];
}

/**
 * A price list is evaluated on every shipping-options call: its size is its cost to every checkout of
 * the merchant. The schema bounds each part; these bound the whole (a few hundred rules with short lists
 * of postal codes stay far below).
 */
export const MAX_PRICE_LIST_VALUES = 2_000;
export const MAX_PRICE_LIST_BYTES = 128 * 1024;

function sizeProblems(input: unknown, pointer: string): ErrorDetail[] {
  const rules = [...itemsOf(fieldOf(input, "pricing_rules")), ...itemsOf(fieldOf(input, "modification_rules"))];
  const values = rules.reduce<number>(
    (n, r) =>
      n +
      itemsOf(fieldOf(r, "criteria")).reduce<number>((m, c) => {
        const value = fieldOf(c, "value");
        return m + (Array.isArray(value) ? value.length : 1);
      }, 0),
    0,
  );
  const bytes = new TextEncoder().encode(JSON.stringify(input) ?? "").length;
  const problems: ErrorDetail[] = [];
  if (values > MAX_PRICE_LIST_VALUES) {
    problems.push({
      path: pointer || "/",
      code: "too_large",
      message: `a price list holds at most ${MAX_PRICE_LIST_VALUES} criterion values in all; this one has ${values}`,
    });
  }
  if (bytes > MAX_PRICE_LIST_BYTES) {
    problems.push({
      path: pointer || "/",
      code: "too_large",
      message: `a price list is at most ${MAX_PRICE_LIST_BYTES} bytes of JSON; this one has ${bytes}`,
    });
  }
  return problems;
}

const decimals = (path: string): ErrorDetail => ({ path, code: "decimals", message: "must have at most two decimals" });
const notCents = (value: unknown) => isNumber(value) && !hasAtMostTwoDecimals(value);

/**
 * Every problem of a price list that its JSON schema does not catch, each naming the JSON pointer of the
 * offending field under `pointer` (e.g. "/body"): an unknown fact, an operator that cannot apply to the fact's
 * type (`<` on a string, `contains` on a number), a value the fact can never have, a price with more than two
 * decimals, `set` below zero or a negative `multiply` factor. Empty when the list is valid. Judges only the parts
 * of the right type: `input` may be anything.
 */
export function validatePriceList(input: unknown, pointer = ""): ErrorDetail[] {
  const problems: ErrorDetail[] = [...sizeProblems(input, pointer)];
  // VAT is copied into every price: 25.5 or 14.25, not 25.123456789.
  if (notCents(fieldOf(input, "tax"))) problems.push(decimals(`${pointer}/tax`));
  if (notCents(fieldOf(input, "fallback_price"))) problems.push(decimals(`${pointer}/fallback_price`));
  itemsOf(fieldOf(input, "pricing_rules")).forEach((rule, i) => {
    const at = `${pointer}/pricing_rules/${i}`;
    itemsOf(fieldOf(rule, "criteria")).forEach((c, j) => problems.push(...criterionProblems(c, `${at}/criteria/${j}`)));
    if (notCents(fieldOf(rule, "price"))) problems.push(decimals(`${at}/price`));
  });
  itemsOf(fieldOf(input, "modification_rules")).forEach((rule, i) => {
    const at = `${pointer}/modification_rules/${i}`;
    itemsOf(fieldOf(rule, "criteria")).forEach((c, j) => problems.push(...criterionProblems(c, `${at}/criteria/${j}`)));
    const amount = fieldOf(rule, "amount");
    if (!isNumber(amount)) return;
    const adjust = fieldOf(rule, "adjust");
    if (adjust === "multiply") {
      if (amount < 0)
        problems.push({ path: `${at}/amount`, code: "minimum", message: "a multiply factor must be >= 0" });
    } else {
      if (!hasAtMostTwoDecimals(amount)) problems.push(decimals(`${at}/amount`));
      if (adjust === "set" && amount < 0)
        problems.push({ path: `${at}/amount`, code: "minimum", message: "a set price must be >= 0" });
    }
  });
  return problems;
}
