// The `explanation` of an explained shipping options answer (explain=true, previews): each price list's rules
// said once, each distinct way a price was reached said once, and a bound on the rule checks one answer carries,
// so that an answer's size follows what was configured, never configuration times pickup points.
import type { components } from "../../generated/api.ts";
import type { MethodPriceList, ShippingMethodType } from "./methods.ts";
import type { PriceSteps } from "./rules.ts";

type Schemas = components["schemas"];
export type ShippingExplanation = Schemas["ShippingExplanation"];
type PriceTrace = Schemas["PriceTrace"];

/** Rule checks one answer lists at most (ShippingExplanation's description): about 40 bytes each. */
export const MAX_RULE_CHECKS = 1000;

/** Collects the traces of one answer, in the order they are referred to. */
export class TraceBook {
  private traces: PriceTrace[] = [];
  private positions = new Map<string, number>();
  private lists = new Map<ShippingMethodType, MethodPriceList>();
  private listed = 0;
  private omitted = 0;

  /**
   * The position of this price's trace in the answer: an equal trace already there is shared; a new one is
   * listed with as many of its rule checks as the answer's budget has left.
   */
  refer(list: MethodPriceList, steps: PriceSteps): number {
    this.lists.set(list.method, list);
    const key = traceKey(steps);
    const known = this.positions.get(key);
    if (known !== undefined) return known;
    const left = Math.max(0, MAX_RULE_CHECKS - this.listed);
    const pricing = steps.pricing_rules.slice(0, left);
    const modification = steps.modification_rules.slice(0, left - pricing.length);
    const kept = pricing.length + modification.length;
    const omitted = steps.pricing_rules.length + steps.modification_rules.length - kept;
    this.listed += kept;
    this.omitted += omitted;
    this.traces.push({
      base: steps.base,
      pricing_rules: pricing,
      modification_rules: modification,
      rule_checks_omitted: omitted,
    });
    this.positions.set(key, this.traces.length - 1);
    return this.traces.length - 1;
  }

  /** The answer's `explanation`: the lists that priced something, with their rules, and the traces. */
  explanation(): ShippingExplanation {
    const priceLists: ShippingExplanation["price_lists"] = {};
    for (const [method, list] of this.lists) {
      priceLists[method] = {
        id: list.id ?? null,
        name: list.name,
        pricing_rules: list.pricing_rules ?? [],
        modification_rules: list.modification_rules ?? [],
      };
    }
    return { price_lists: priceLists, traces: this.traces, rule_checks_omitted: this.omitted };
  }
}

/**
 * Equal keys for equal traces, cheaply: a check's index is its position, so a rule check is said by its failed
 * criterion (or its price after a matched modification). JSON.stringify of the whole trace, once per pickup
 * point, was 40% of the CPU of an explain flood (npm run bench:neighbours -- explain).
 */
function traceKey(steps: PriceSteps): string {
  let key = `${steps.base.source} ${steps.base.rule_index} ${steps.base.gross}|`;
  for (const c of steps.pricing_rules) key += c.matched ? "m," : `${c.failed_criterion},`;
  key += "|";
  for (const c of steps.modification_rules) key += c.matched ? `m${c.gross_after},` : `${c.failed_criterion},`;
  return key;
}
