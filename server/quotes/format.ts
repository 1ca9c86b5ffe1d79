// A quote's wire form and its check, shared by the server (which signs quotes and checks those sent with orders)
// and the client package (whose verifyQuote a shop's backend calls): a compact JWS, EdDSA over Ed25519, whose
// payload is the spec's QuotePayload. Pure apart from node:crypto, so that the client package can carry it.
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import type { QuoteFacts, QuoteKey, QuoteKeySet, QuotePayload } from "../../generated/api.ts";
import { normalisePostalCode } from "../shared/postal-codes.ts";

export type { QuoteFacts, QuoteKey, QuoteKeySet, QuotePayload };

/** The cart a shop's backend knows, to compare with what a browser sent; postal code and country when known. */
export interface CartFacts {
  /** Grams; null or absent: unknown (a quote priced without a weight matches only that). */
  weight?: number | null;
  /** EUR including VAT; absent: 0. */
  cart_value?: number;
  /** Absent: 0. */
  item_count?: number;
  /** Order does not matter; absent: none. */
  tags?: readonly string[];
  postalcode?: string;
  country?: string;
}

/** Why a quote is refused: the detail codes of an order's `/body/quote` too. */
export type QuoteProblem = "quote_invalid" | "quote_expired" | "quote_not_yours" | "quote_facts" | "quote_destination";

export type QuoteCheck =
  { valid: true; quote: QuotePayload } | { valid: false; problem: QuoteProblem; message: string; quote?: QuotePayload };

const HEADER_TYPE = "quote+jws";

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

/** The quote for `payload`, signed by `sign` (Ed25519 over the JWS signing input) under key `kid`. */
export function encodeQuote(payload: QuotePayload, kid: string, sign: (input: Buffer) => Buffer): string {
  const input = `${b64url(JSON.stringify({ alg: "EdDSA", kid, typ: HEADER_TYPE }))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${b64url(sign(Buffer.from(input)))}`;
}

/** The facts a quote carries, from what the page asked with: tags sorted, so that their order never matters. */
export function quoteFacts(f: {
  postalcode: string;
  country: QuoteFacts["country"];
  weight?: number | null;
  cart_value?: number;
  item_count?: number;
  tags?: readonly string[];
}): QuoteFacts {
  return {
    postalcode: f.postalcode,
    country: f.country,
    weight: typeof f.weight === "number" ? f.weight : null,
    cart_value: f.cart_value ?? 0,
    item_count: f.item_count ?? 0,
    tags: [...(f.tags ?? [])].sort(),
  };
}

const keyObjects = new Map<string, KeyObject>();
function publicKey(jwk: QuoteKey): KeyObject | undefined {
  let key = keyObjects.get(jwk.x);
  if (!key) {
    try {
      key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" });
    } catch {
      return undefined;
    }
    if (keyObjects.size > 100) keyObjects.clear();
    keyObjects.set(jwk.x, key);
  }
  return key;
}

/**
 * The bytes of a base64url part, or undefined unless `part` is their one spelling: Node's decoder ignores a
 * dangling last character and the unused low bits of the last one, so several strings would decode alike, and a
 * shop that keeps one order per quote text could be given one quote twice.
 */
function decodePart(part: string): Buffer | undefined {
  const bytes = Buffer.from(part, "base64url");
  return bytes.toString("base64url") === part ? bytes : undefined;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}

const isPayload = (p: unknown): p is QuotePayload => {
  const q = p as QuotePayload | undefined;
  return (
    typeof q === "object" &&
    q !== null &&
    q.v === 1 &&
    typeof q.merchant_id === "string" &&
    typeof q.method === "string" &&
    typeof q.exp === "number" &&
    typeof q.price?.gross === "number" &&
    typeof q.facts?.postalcode === "string" &&
    Array.isArray(q.facts.tags)
  );
};

const cents = (eur: number) => Math.round(eur * 100);

/** The facts of `cart` the quote was not priced on, in words; empty when they all match. */
function differences(facts: QuoteFacts, cart: CartFacts): string[] {
  const out: string[] = [];
  const weight = typeof cart.weight === "number" ? cart.weight : null;
  if (facts.weight !== weight) out.push(`weight ${facts.weight ?? "unknown"} g, the cart ${weight ?? "unknown"} g`);
  if (cents(facts.cart_value) !== cents(cart.cart_value ?? 0))
    out.push(`cart value ${facts.cart_value}, the cart ${cart.cart_value ?? 0}`);
  if (facts.item_count !== (cart.item_count ?? 0))
    out.push(`item count ${facts.item_count}, the cart ${cart.item_count ?? 0}`);
  const tags = [...(cart.tags ?? [])].sort();
  if (facts.tags.length !== tags.length || facts.tags.some((t, i) => t !== tags[i]))
    out.push(`tags [${facts.tags.join(", ")}], the cart [${tags.join(", ")}]`);
  // The service prices postal codes in their country's form, and a quote says it in that form: a quote that says
  // another spelling was priced by rules that saw another code (a release before codes were normalised).
  if (
    cart.postalcode !== undefined &&
    normalisePostalCode(cart.country ?? facts.country, cart.postalcode) !== facts.postalcode
  )
    out.push(`postal code ${facts.postalcode}, the cart ${cart.postalcode}`);
  if (cart.country !== undefined && cart.country !== facts.country)
    out.push(`country ${facts.country}, the cart ${cart.country}`);
  return out;
}

const isKeyList = (k: QuoteKeySet | readonly QuoteKey[]): k is readonly QuoteKey[] => Array.isArray(k);

interface VerifyCommon {
  /** The keys of `GET /quote_keys` (the set or its `keys`). */
  keys: QuoteKeySet | readonly QuoteKey[];
  /** Your own cart: the quote must have been priced on exactly these facts. */
  cart: CartFacts;
  now?: Date;
}

/**
 * What a quote is checked with. `merchantId` is required: without it a quote priced for another merchant's page
 * (another price list) would pass whenever the cart facts match. A backend that serves several merchants and
 * compares `quote.merchant_id` itself says so with `dangerouslyAcceptAnyMerchant: true`.
 */
export type VerifyOptions = VerifyCommon &
  (
    | {
        /** Your merchant id: a quote given to another merchant's page is refused. */
        merchantId: string;
        dangerouslyAcceptAnyMerchant?: false;
      }
    | {
        merchantId?: undefined;
        /** Skip the merchant check: you compare `quote.merchant_id` with the right merchant yourself. */
        dangerouslyAcceptAnyMerchant: true;
      }
  );

/** The key id a quote's header names, when it is a quote's header at all (the server reloads its keys for one). */
export function quoteKeyId(quote: string): string | undefined {
  const part = typeof quote === "string" && quote.length <= 4000 ? quote.split(".")[0]! : "";
  const bytes = /^[A-Za-z0-9_-]+$/.test(part) ? decodePart(part) : undefined;
  const header = bytes && (parseJson(bytes) as { alg?: unknown; kid?: unknown; typ?: unknown } | null | undefined);
  return header?.alg === "EdDSA" && header.typ === HEADER_TYPE && typeof header.kid === "string"
    ? header.kid
    : undefined;
}

/**
 * Checks a quote a browser sent back: signed by the service with one of `keys`, each part in its one spelling,
 * not expired, for `merchantId`, and priced on `cart`'s facts. A quote stays valid until it expires, for as many
 * orders as it is sent with: keep one order per quote yourself if you need that. Never throws for a quote (a
 * refusal says why: `problem`, `message`); options without `merchantId` (nor `dangerouslyAcceptAnyMerchant`) are
 * a TypeError, a mistake in the calling code rather than in the quote.
 */
export function verifyQuote(quote: string, opts: VerifyOptions): QuoteCheck {
  if (!(typeof opts?.merchantId === "string" && opts.merchantId !== "") && opts?.dangerouslyAcceptAnyMerchant !== true)
    throw new TypeError(
      "verifyQuote needs your merchantId (or dangerouslyAcceptAnyMerchant: true when you compare quote.merchant_id yourself)",
    );
  const invalid = (message: string): QuoteCheck => ({ valid: false, problem: "quote_invalid", message });
  const parts = typeof quote === "string" && quote.length <= 4000 ? quote.split(".") : [];
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return invalid("not a quote");
  const [headerBytes, payloadBytes, signature] = parts.map(decodePart);
  if (!headerBytes || !payloadBytes || !signature)
    return invalid("not a quote: a part is not in its one base64url spelling");
  const header = parseJson(headerBytes) as { alg?: unknown; kid?: unknown; typ?: unknown } | null | undefined;
  if (header?.alg !== "EdDSA" || header.typ !== HEADER_TYPE || typeof header.kid !== "string")
    return invalid("not a quote");
  const keys = isKeyList(opts.keys) ? opts.keys : opts.keys.keys;
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) return invalid(`signed with key ${header.kid.slice(0, 40)}, which is not among the quote keys`);
  const key = publicKey(jwk);
  if (!key || !verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), key, signature))
    return invalid("the signature does not match: the quote was altered");
  const payload = parseJson(payloadBytes);
  if (!isPayload(payload)) return invalid("not a quote");
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (payload.exp <= now)
    return {
      valid: false,
      problem: "quote_expired",
      message: "the quote has expired: ask for options again",
      quote: payload,
    };
  if (opts.merchantId !== undefined && payload.merchant_id !== opts.merchantId.toLowerCase())
    return {
      valid: false,
      problem: "quote_not_yours",
      message: "the quote was given to another merchant",
      quote: payload,
    };
  const diff = differences(payload.facts, opts.cart);
  if (diff.length)
    return {
      valid: false,
      problem: "quote_facts",
      message: `the quote was priced on other facts: ${diff.join("; ")}`,
      quote: payload,
    };
  return { valid: true, quote: payload };
}
