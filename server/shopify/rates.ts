// Shopify's rate request mapped onto the shipping options core, and its answer mapped back into Shopify's `rates`:
// the cart's facts (weight, value, item count, tags from mapped line item properties) price the merchant's own
// lists; each available option is a rate, each of the nearest pickup points one too. A request no rate can answer
// (no postal code, a currency the lists are not in: no conversion) has no rates.
import { createRequire } from "node:module";
import { DateTime } from "luxon";
import type { CountryCode, components, ShopifyRate, ShopifyRateRequest, ShopifyRates } from "../../generated/api.ts";
import type { Db } from "../db/database.ts";
import { normalisePostalCode, postalCodeProblem } from "../shared/postal-codes.ts";
import { shippingConfig } from "../shipping/merchant-config.ts";
import { genericShippingOptions, type Caches } from "../shipping/shipping-options.ts";
import type { WorkingToken } from "./tokens.ts";
import { rateWords, type RateWords } from "./words.ts";

type Price = components["schemas"]["Price"];
type Estimate = components["schemas"]["DeliveryEstimate"];

const currencies = createRequire(import.meta.url)("currency-codes") as {
  code(c: string): { digits: number } | undefined;
};
/** Decimals of a currency's subunit (EUR 2, JPY 0); undefined for a code ISO 4217 does not list. */
const digitsOf = (currency: string): number | undefined => currencies.code(currency)?.digits;

const NO_RATES: ShopifyRates = { rates: [] };

/** The cart's facts for price-list rules, in the request's currency (the lists are priced in it, or none apply). */
export function cartFacts(rate: ShopifyRateRequest["rate"], tagProperties: readonly string[], digits: number) {
  let grams = 0;
  let subunits = 0;
  let count = 0;
  const tags = new Set<string>();
  for (const item of rate.items) {
    // An item that needs no shipping (a gift card, a download) is not in the parcel, and costs nothing to send.
    if (item.requires_shipping === false) continue;
    grams += item.grams * item.quantity;
    subunits += item.price * item.quantity;
    count += item.quantity;
    const properties = item.properties ?? {};
    for (const name of tagProperties) {
      const value = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (typeof value === "string" && value.trim() !== "") tags.add(value.trim());
    }
  }
  return { weight: grams, cart_value: Math.round(subunits) / 10 ** digits, item_count: count, tags: [...tags] };
}

/** A delivery date as Shopify shows it: the start of that day in the merchant's zone, with its offset. */
export const shopifyDate = (date: string, zone: string): string =>
  DateTime.fromISO(date, { zone }).startOf("day").toFormat("yyyy-MM-dd HH:mm:ss ZZZ");

function rate(
  name: string,
  code: string,
  price: Price,
  digits: number,
  description: string,
  estimate: Estimate | undefined,
  zone: string | null,
): ShopifyRate {
  return {
    service_name: name.slice(0, 200),
    service_code: code,
    total_price: String(Math.round(price.gross * 10 ** digits)),
    currency: price.currency,
    description: description.slice(0, 1200),
    ...(estimate &&
      zone && {
        min_delivery_date: shopifyDate(estimate.earliest, zone),
        max_delivery_date: shopifyDate(estimate.latest, zone),
      }),
  };
}

const pointDescription = (
  p: { address: string; postalcode: string; city: string; location_info: string | null },
  words: RateWords,
) => `${p.address}, ${p.postalcode} ${p.city}${p.location_info ? `. ${words.hours}: ${p.location_info}` : ""}`;

/** The rates of a request made with `token`, at `now`. */
export async function shopifyRates(
  db: Db,
  caches: Caches,
  token: WorkingToken,
  request: ShopifyRateRequest,
  now: Date,
): Promise<ShopifyRates> {
  const { rate: cart } = request;
  const currency = cart.currency.toUpperCase();
  const digits = digitsOf(currency);
  const country = cart.destination.country?.toUpperCase();
  const postal = cart.destination.postal_code?.trim();
  if (digits === undefined || !country || !postal || postalCodeProblem(country, postal)) return NO_RATES;
  const config = await shippingConfig(db, caches.shippingConfig, token.merchantId);
  // No conversion: a currency none of the lists is in has no rates, and a list in another currency none either.
  if (!config.priceLists.some((list) => list.currency === currency)) return NO_RATES;
  const merchant = { role: "merchant" as const, id: token.merchantId, name: `M-${token.merchantId}` };
  const { options } = await genericShippingOptions(
    db,
    caches,
    merchant,
    {
      postalcode: normalisePostalCode(country, postal),
      country: country as CountryCode,
      ...cartFacts(cart, token.tagProperties, digits),
      explain: false,
      pickup_points_limit: Math.max(1, token.pickupRates),
    },
    now,
  );
  const words = rateWords(cart.locale);
  const zone = config.settings.time_zone ?? null;
  const rates: ShopifyRate[] = [];
  for (const method of ["home", "letter"] as const) {
    const option = options[method];
    if (option.available && option.price.currency === currency)
      rates.push(rate(words[method], method, option.price, digits, "", option.delivery_estimate, zone));
  }
  if (options.pickup.available && token.pickupRates > 0) {
    for (const p of Object.values(options.pickup.pickup_points)) {
      if (p.price.currency !== currency) continue;
      rates.push(rate(p.name, p.id, p.price, digits, pointDescription(p, words), p.delivery_estimate, zone));
    }
  }
  return { rates };
}
