// The facts price-list rules test, computed from a generic query or from an order (ShippingFacts in the spec).
import type { components } from "../../generated/api.ts";
import { fromCents, toCents } from "../shared/money.ts";
import { normalisePostalCode } from "../shared/postal-codes.ts";

type Schemas = components["schemas"];
export type ShippingFacts = Schemas["ShippingFacts"];
type Dimensions = Schemas["OrderLineDimensions"];

/** An order line; an absent `letter_allowed` means `true`. */
export type OrderFactsLine = Schemas["OrderLine"];
/** What facts need of an order: a stored `Order` and an `OrderCreate` both fit. */
export type OrderFactsInput = Pick<Schemas["OrderCreate"], "customer" | "tags"> & {
  products: readonly OrderFactsLine[];
  destination?: Schemas["OrderDestination"] | null;
};

export interface GenericQuery {
  postalcode: string;
  country: Schemas["CountryCode"];
  /** Grams; absent when the caller did not say. */
  weight?: number | null;
  /** The cart a checkout page describes: EUR, items, tags; absent: 0, 0, none. */
  cart_value?: number;
  item_count?: number;
  tags?: readonly string[];
}

/**
 * When a shipment may go as a letter: the merchant's `letter.max_weight_g`, and the largest item that fits in a
 * letter, compared orientation-free (sorted sides). Default: Posti's maxi letter, 353 x 250 x 32 mm.
 */
export interface LetterLimits {
  max_weight_g: number;
  max_dimensions_mm?: Dimensions;
}
export const LETTER_MAX_DIMENSIONS_MM: Dimensions = { length: 353, width: 250, height: 32 };

/** Whether one item of these outer dimensions fits a letter of `max` in some orientation. */
export function fitsLetter(item: Dimensions, max: Dimensions = LETTER_MAX_DIMENSIONS_MM): boolean {
  const sides = [item.length, item.width, item.height].sort((a, b) => b - a);
  const limits = [max.length, max.width, max.height].sort((a, b) => b - a);
  return sides.every((side, i) => side <= limits[i]!);
}

/**
 * Facts of `GET /shipping_options`: no order, so the cart's value, item count and tags are what the query says
 * (0, 0 and none when absent), volume and article count 0; `total_weight` is the `weight` parameter (0 when
 * absent); a letter is possible only when the weight is given and within the limit.
 */
export function genericFacts(query: GenericQuery, letter: LetterLimits): ShippingFacts {
  const weightKnown = typeof query.weight === "number" && Number.isFinite(query.weight);
  const weight = weightKnown ? query.weight! : 0;
  return {
    "pup.branch": null,
    "customer.country": query.country,
    "customer.postalcode": query.postalcode,
    "customer.address": null,
    "order.shipping_type": null,
    "order.tags": [...(query.tags ?? [])],
    "order.total_eur": query.cart_value ?? 0,
    "order.letter_possible": weightKnown && weight <= letter.max_weight_g,
    "order.total_weight": weight,
    "order.total_volume": 0,
    "order.item_count": query.item_count ?? 0,
    "order.item_article_count": 0,
  };
}

/** The method an order's destination implies: `home`, `letter`, `pickup` (a pickup point id) or none. */
export function shippingTypeOf(destination: OrderFactsInput["destination"]): ShippingFacts["order.shipping_type"] {
  if (destination === "home" || destination === "letter") return destination;
  return typeof destination === "string" ? "pickup" : null;
}

/**
 * Facts of `GET /orders/{id}/shipping_options`.
 * - total_eur: sum of qty x unit_price, summed in cents (39.8, never 39.800000000000004).
 * - total_weight: sum of qty x weight_g (grams). total_volume: sum of qty x l x w x h of lines with dimensions,
 *   in litres rounded to millilitres; lines without dimensions count 0.
 * - item_count: sum of qty; item_article_count: distinct `merchants_id`.
 * - letter_possible: total weight within `letter.max_weight_g`, no line with `letter_allowed: false`, and every
 *   line with dimensions fits a letter (per item; lines without dimensions are trusted).
 * - pup.branch: `pickupBranch` (the chosen point's branch, looked up by the caller) when the destination is a
 *   pickup point, else null.
 */
export function orderFacts(
  order: OrderFactsInput,
  letter: LetterLimits,
  pickupBranch: string | null = null,
): ShippingFacts {
  let cents = 0;
  let weight = 0;
  let mm3 = 0;
  let items = 0;
  let letterItems = true;
  const maxDims = letter.max_dimensions_mm ?? LETTER_MAX_DIMENSIONS_MM;
  for (const line of order.products) {
    cents += line.qty * toCents(line.unit_price);
    weight += line.qty * line.weight_g;
    items += line.qty;
    const d = line.dimensions_mm;
    if (d) mm3 += line.qty * d.length * d.width * d.height;
    if (line.letter_allowed === false || (d && !fitsLetter(d, maxDims))) letterItems = false;
  }
  const shippingType = shippingTypeOf(order.destination);
  return {
    "pup.branch": shippingType === "pickup" ? pickupBranch : null,
    "customer.country": order.customer.country,
    // Orders stored before codes were normalised where they enter keep the spelling they came with.
    "customer.postalcode": normalisePostalCode(order.customer.country, order.customer.postalcode),
    "customer.address": order.customer.address ?? null,
    "order.shipping_type": shippingType,
    "order.tags": [...(order.tags ?? [])],
    "order.total_eur": fromCents(cents),
    "order.letter_possible": letterItems && weight <= letter.max_weight_g,
    "order.total_weight": weight,
    "order.total_volume": Math.round(mm3 / 1000) / 1000,
    "order.item_count": items,
    "order.item_article_count": new Set(order.products.map((line) => line.merchants_id)).size,
  };
}
