// Assembles `options.letter|home|pickup` of a shipping options answer (SEED.md 4.4) from settings, price lists,
// facts and the nearest pickup points already fetched. Pure: no I/O.
import type { components } from "../../generated/api.ts";
import type { TraceBook } from "./explanation.ts";
import { explainedPriceOf, priceOf, type PricedList, type ShippingFacts } from "./rules.ts";

type Schemas = components["schemas"];
export type ShippingMethodType = Schemas["ShippingMethodType"];
export type ShippingUnavailableReason = Schemas["ShippingUnavailableReason"];
export type ShippingOptionsByMethod = Schemas["ShippingOptionsByMethod"];
export type PickupPoint = Schemas["PickupPoint"];
export type PickupPointWithPrice = Schemas["PickupPointWithPrice"];
/** What options need of settings: a stored `ShippingSettings` (its `updated_at` is ignored) fits. */
export type MethodSettings = Pick<Schemas["ShippingSettings"], "letter" | "home" | "pickup" | "countries">;
/** What options need of a price list: a stored `PriceList` fits, and a draft `PriceListInput` (no id). */
export type MethodPriceList = PricedList & Pick<Schemas["PriceList"], "method" | "name"> & { id?: string | null };

export const DEFAULT_PICKUP_POINT_LIMIT = 10;
export const MAX_PICKUP_POINT_LIMIT = 50; // PickupMethodOption.pickup_points maxProperties

export interface ShippingOptionsInput {
  settings: MethodSettings;
  /** At most one per method; a method without one is `merchant_disabled`. */
  priceLists: readonly MethodPriceList[];
  facts: ShippingFacts;
  /** Nearest first; extra properties such as `distance_m` are dropped from the answer, unless `distances`. */
  pickupPoints: readonly (PickupPoint & { distance_m?: number })[];
  /** Why `pickupPoints` is empty, as the directory said (default `no_pickup_points`). */
  pickupReason?: "unknown_postal_code" | "no_pickup_points" | "pickup_points_too_far" | null;
  /** How many pickup points to offer (default 10, at most 50). */
  limit?: number;
  /** Keep each point's `distance_m` (a checkout page's answer: the picker shows it). */
  distances?: boolean;
}

/**
 * Why a method is not available, or null when it is. Checked in this order, first hit wins:
 * `merchant_disabled` (switched off or no price list), `country_not_served` (customer's country not in
 * `countries`), then per method: letter `item_does_not_allow` (facts say no letter: weight unknown, over the
 * limit, or an item not letter-able); home/pickup `weight_exceeded` (over the method's `max_weight_g`);
 * pickup: without points, the directory's reason (`unknown_postal_code`, `no_pickup_points` or
 * `pickup_points_too_far`).
 */
export function unavailableReason(
  method: ShippingMethodType,
  input: ShippingOptionsInput,
): ShippingUnavailableReason | null {
  const { settings, facts } = input;
  if (!settings[method].enabled || !input.priceLists.some((list) => list.method === method)) return "merchant_disabled";
  if (!settings.countries.includes(facts["customer.country"])) return "country_not_served";
  if (method === "letter") return facts["order.letter_possible"] ? null : "item_does_not_allow";
  // Letters use `letter.max_weight_g` through `order.letter_possible` instead.
  const maxWeight = settings[method].max_weight_g;
  if (maxWeight !== undefined && facts["order.total_weight"] > maxWeight) return "weight_exceeded";
  if (method === "pickup" && input.pickupPoints.length === 0) return input.pickupReason ?? "no_pickup_points";
  return null;
}

const METHOD_WORDS: Record<ShippingMethodType, string> = { letter: "Letter", home: "Home delivery", pickup: "Pickup" };

/** `reason` in words, naming the setting or fact that decided it (the `explanation` of an unavailable method). */
export function unavailableDetail(
  method: ShippingMethodType,
  reason: ShippingUnavailableReason,
  input: ShippingOptionsInput,
): string {
  const { settings, facts } = input;
  const weight = facts["order.total_weight"];
  switch (reason) {
    case "merchant_disabled":
      return settings[method].enabled
        ? `There is no price list for ${method}.`
        : `${METHOD_WORDS[method]} is switched off in your shipping settings.`;
    case "country_not_served": {
      const countries =
        settings.countries.length > 12
          ? `${settings.countries.slice(0, 12).join(", ")}, ...`
          : settings.countries.join(", ");
      return `The customer's country ${facts["customer.country"]} is not among the countries of your shipping settings (${countries}).`;
    }
    case "item_does_not_allow":
      if (weight > settings.letter.max_weight_g)
        return `The total weight ${weight} g is over letter.max_weight_g ${settings.letter.max_weight_g} g.`;
      if (facts["order.item_count"] === 0)
        return "The weight is unknown (no weight was given), so a letter cannot be offered.";
      return "An item may not go as a letter: its line says letter_allowed: false, or it is larger than a letter.";
    case "weight_exceeded":
      return `The total weight ${weight} g is over ${method}.max_weight_g ${(settings[method] as { max_weight_g?: number }).max_weight_g} g.`;
    case "no_pickup_points":
      return `No pickup point was found near ${facts["customer.postalcode"]} ${facts["customer.country"]}.`;
    case "pickup_points_too_far":
      return `No pickup point is within pickup.max_distance_km ${settings.pickup.max_distance_km} km of ${facts["customer.postalcode"]} ${facts["customer.country"]}.`;
    case "unknown_postal_code":
      return `The pickup point directory does not know the postal code ${facts["customer.postalcode"]} ${facts["customer.country"]}.`;
    default:
      return reason;
  }
}

/** The spec's fields of a pickup point in shipping options: its own, and its distance when asked for. */
export function pointFields(
  p: PickupPoint & { distance_m?: number },
  distances = false,
): PickupPoint & { distance_m?: number } {
  return {
    id: p.id,
    name: p.name,
    address: p.address,
    postalcode: p.postalcode,
    city: p.city,
    country: p.country,
    coordinates: p.coordinates,
    branch: p.branch,
    location_info: p.location_info,
    carrier_info: p.carrier_info,
    kind: p.kind,
    ...(distances && p.distance_m !== undefined && { distance_m: p.distance_m }),
  };
}

/**
 * `options` of a shipping options answer. Unavailable: `{available: false, reason}`. Available letter/home:
 * `{available: true, price}`. Available pickup: `{available: true, pickup_points}` keyed by id in the given
 * (nearest-first) order, each priced with `pup.branch` set to its own branch; no `price` on the method.
 * Ids are 24 hex characters, never array-index-like keys, so object member order is insertion order.
 * With `book` (explain=true, previews), every option and point is explained: priced ones by a reference to
 * their trace in the book, unavailable ones in words.
 */
export function buildShippingOptions(input: ShippingOptionsInput, book?: TraceBook): ShippingOptionsByMethod {
  const listOf = (method: ShippingMethodType) => input.priceLists.find((list) => list.method === method)!;
  const unavailable = (method: ShippingMethodType, reason: ShippingUnavailableReason) =>
    book
      ? { available: false as const, reason, explanation: { detail: unavailableDetail(method, reason, input) } }
      : { available: false as const, reason };
  const priced = (list: MethodPriceList, facts: ShippingFacts) => {
    if (!book) return { price: priceOf(list, facts) };
    const { price, steps } = explainedPriceOf(list, facts);
    return { price, explanation: { trace: book.refer(list, steps) } };
  };
  const simple = (method: "letter" | "home") => {
    const reason = unavailableReason(method, input);
    return reason ? unavailable(method, reason) : { available: true as const, ...priced(listOf(method), input.facts) };
  };
  const pickup = (): ShippingOptionsByMethod["pickup"] => {
    const reason = unavailableReason("pickup", input);
    if (reason) return unavailable("pickup", reason);
    const list = listOf("pickup");
    const limit = Math.min(Math.max(1, Math.trunc(input.limit ?? DEFAULT_PICKUP_POINT_LIMIT)), MAX_PICKUP_POINT_LIMIT);
    const points: Record<string, PickupPointWithPrice> = {};
    // One copy of the facts for every point, each priced with its own branch in it (pricing only reads them).
    const facts: ShippingFacts = { ...input.facts };
    // The facts differ from point to point by the branch alone, so points of one branch share one price. With an
    // explanation asked for, each point is priced on its own: its trace reference is its own.
    const byBranch = new Map<string, ReturnType<typeof priced>>();
    let count = 0;
    for (const p of input.pickupPoints) {
      if (count >= limit) break;
      if (Object.hasOwn(points, p.id)) continue;
      let cost = book ? undefined : byBranch.get(p.branch);
      if (!cost) {
        facts["pup.branch"] = p.branch;
        cost = priced(list, facts);
        if (!book) byBranch.set(p.branch, cost);
      }
      points[p.id] = Object.assign(pointFields(p, input.distances), cost);
      count++;
    }
    return { available: true, pickup_points: points };
  };
  return { letter: simple("letter"), home: simple("home"), pickup: pickup() };
}
