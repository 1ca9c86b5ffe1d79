// Signed quotes: every price a publishable key's answer gives a browser carries a quote of it, and an order placed
// with a quote is checked against the order's own facts (format.ts is the quote itself, shared with the client).
import type { ShippingFacts, ShippingOptionsResult } from "../../generated/api.ts";
import { invalid } from "../shared/errors.ts";
import { encodeQuote, quoteKeyId, verifyQuote, type QuoteFacts, type QuoteKey, type QuotePayload } from "./format.ts";
import type { SigningKeys } from "./signing-keys.ts";
import type { Clock } from "../shared/clock.ts";
import type { OwnAnswer } from "../shipping/order-answer.ts";

export interface Quoter {
  keys: SigningKeys;
  /** How long a quote is valid (QUOTE_TTL_SECONDS). */
  ttlMs: number;
  /** Quotes are signed at and checked against its "now". */
  clock: Clock;
}

/**
 * `result` with a quote on every available letter and home option and on every priced pickup point, signed at
 * `now` (the answer's own instant, so its estimates and its quotes' iat agree).
 */
export async function withQuotes(
  result: ShippingOptionsResult,
  merchantId: string,
  facts: QuoteFacts,
  quoter: Quoter,
  now: Date,
): Promise<ShippingOptionsResult> {
  const key = await quoter.keys.current();
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + Math.floor(quoter.ttlMs / 1000);
  // The delivery estimate is added only when the answer has one: a quote without it reads as before.
  const quote = (
    method: QuotePayload["method"],
    pickupPointId: string | null,
    { price, delivery_estimate }: Pick<QuotePayload, "price" | "delivery_estimate">,
  ) =>
    encodeQuote(
      {
        v: 1,
        merchant_id: merchantId,
        method,
        pickup_point_id: pickupPointId,
        price,
        facts,
        iat,
        exp,
        ...(delivery_estimate && { delivery_estimate }),
      },
      key.kid,
      key.sign,
    );
  const { letter, home, pickup } = result.options;
  return {
    ...result,
    options: {
      letter: letter.available ? { ...letter, quote: quote("letter", null, letter) } : letter,
      home: home.available ? { ...home, quote: quote("home", null, home) } : home,
      pickup: pickup.available
        ? {
            ...pickup,
            pickup_points: Object.fromEntries(
              Object.entries(pickup.pickup_points).map(([id, p]) => [id, { ...p, quote: quote("pickup", id, p) }]),
            ),
          }
        : pickup,
    },
  };
}

const refuse = (code: string, message: string) =>
  invalid([{ path: "/body/quote", message, code }], "The shipping quote does not fit this order.");

/** The destination a quote stands for: `home`, `letter` or its pickup point's id. */
const destinationOf = (q: QuotePayload) => (q.method === "pickup" ? q.pickup_point_id! : q.method);

/** What a sent quote is checked with: the published keys (quoteKeysFor) and the clock's "now" for its expiry. */
export interface QuoteCheckInput {
  keys: readonly QuoteKey[];
  now: Date;
}

/**
 * Checks the quote an order is placed or modified with against the order as it will be stored: signed by a
 * published key, unexpired, the merchant's, for the order's destination (or, when the order names none, naming
 * it), and priced on the order's facts. Refusals are 400 on `/body/quote` with the problem as the detail code.
 * `keys` (published ones, quoteKeysFor) are read before the order's transaction: the embedded database has one
 * connection, which that transaction holds.
 */
export function checkOrderQuote(
  quote: string,
  merchantId: string,
  facts: ShippingFacts,
  destination: string | null | undefined,
  { keys, now }: QuoteCheckInput,
): { stored: QuotePayload; destination: string } {
  const checked = verifyQuote(quote, {
    keys,
    now,
    merchantId,
    cart: {
      weight: facts["order.total_weight"],
      cart_value: facts["order.total_eur"],
      item_count: facts["order.item_count"],
      tags: facts["order.tags"],
      postalcode: facts["customer.postalcode"],
      country: facts["customer.country"],
    },
  });
  if (!checked.valid) throw refuse(checked.problem, checked.message);
  const q = checked.quote;
  const quoted = destinationOf(q);
  if (destination != null && destination !== quoted)
    throw refuse("quote_destination", `the quote is for ${quoted}, the order's destination is ${destination}`);
  return { destination: quoted, stored: q };
}

/**
 * Checks a quote that fits the order's facts against the order's own answer for its destination (order-answer.ts):
 * the method must be available to the order (`quote_unavailable`: a letter quote for an item that may not go as a
 * letter) and cost what the quote says (`quote_price`: a larger volume, more articles, an address the rules see).
 */
export function checkQuotedAnswer(quote: QuotePayload, own: OwnAnswer): void {
  const what = quote.method === "pickup" ? `pickup point ${quote.pickup_point_id}` : quote.method;
  if (!own.available) throw refuse("quote_unavailable", `${what} is not available for this order (${own.reason})`);
  const [mine, quoted] = [own.price, quote.price];
  if (mine.gross !== quoted.gross || mine.currency !== quoted.currency || mine.tax !== quoted.tax)
    throw refuse(
      "quote_price",
      `the order's own price for ${what} is ${mine.gross} ${mine.currency} (VAT ${mine.tax} %), the quote's ${quoted.gross} ${quoted.currency} (VAT ${quoted.tax} %)`,
    );
}

/**
 * What a request's quote is checked with: the published keys when it carries one (read again when it names a key
 * this instance does not know yet; none otherwise, no read), and the clock's "now".
 */
export async function quoteKeysFor(quote: string | undefined, quoter: Quoter): Promise<QuoteCheckInput> {
  const keys = quote === undefined ? [] : await quoter.keys.publishedFor(quoteKeyId(quote));
  return { keys, now: quoter.clock.now() };
}
