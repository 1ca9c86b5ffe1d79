// The one definition of webhook signing (Standard Webhooks), shared by the server's dispatcher and merchants:
// webhook-signature = "v1,<base64 HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)>",
// key = base64-decoded secret without its `whsec_` prefix.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { WebhookEvent } from "./webhook-events.ts";
export type { WebhookEvent, WebhookEventOf, WebhookEventType } from "./webhook-events.ts";

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

export interface VerifyOptions {
  /** Seconds a delivery may be old or early: a whole number from 1 to 86400; default 300. Protects against replay. */
  toleranceSeconds?: number;
  now?: Date;
}

/** The most a tolerance may be: a day; more only widens the window in which a captured delivery can be replayed. */
export const MAX_TOLERANCE_SECONDS = 86_400;
/** Fewer key bytes than this are a configuration mistake (a truncated or hand-typed secret), not a key. */
export const MIN_SECRET_BYTES = 16;

/** A Fetch `Headers`, or a plain record such as node's `req.headers` (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const PREFIX = "whsec_";

function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  // A short key makes signatures guessable: a configuration mistake, refused before any delivery is judged.
  if (key.length === 0) throw new TypeError("webhook secret is empty or not base64 (expected whsec_<base64>)");
  if (key.length < MIN_SECRET_BYTES)
    throw new TypeError(`webhook secret decodes to ${key.length} bytes; expected at least ${MIN_SECRET_BYTES}`);
  return key;
}

function keysOf(secrets: string | readonly string[]): Buffer[] {
  const keys = (typeof secrets === "string" ? [secrets] : secrets).map(keyOf);
  if (keys.length === 0) throw new TypeError("no webhook secret given");
  return keys;
}

// NaN or Infinity would compare false against every age and accept any old delivery.
function toleranceOf(opts: VerifyOptions): number {
  const t = opts.toleranceSeconds ?? 300;
  if (!Number.isInteger(t) || t < 1 || t > MAX_TOLERANCE_SECONDS)
    throw new TypeError(`toleranceSeconds must be a whole number from 1 to ${MAX_TOLERANCE_SECONDS}, got ${t}`);
  if (opts.now !== undefined && !Number.isFinite(opts.now.getTime())) throw new TypeError("now is not a valid date");
  return t;
}

function hmac(key: Buffer, id: string, timestamp: string, body: string | Uint8Array): Buffer {
  return createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the spec's WebhookSecret). */
export function generateWebhookSecret(bytes = 32): string {
  if (bytes < 24 || bytes > 64) throw new RangeError("a webhook secret has 24 to 64 random bytes");
  return PREFIX + randomBytes(bytes).toString("base64");
}

/**
 * The `webhook-signature` value: one `v1,` entry per secret, space-separated (two during a rotation).
 * `body` must be the exact bytes sent.
 */
export function signWebhook(
  secrets: string | readonly string[],
  id: string,
  timestamp: number,
  body: string | Uint8Array,
): string {
  const list = typeof secrets === "string" ? [secrets] : secrets;
  return list.map((s) => `v1,${hmac(keyOf(s), id, String(timestamp), body).toString("base64")}`).join(" ");
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(
  secrets: string | readonly string[],
  id: string,
  body: string | Uint8Array,
  now = new Date(),
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secrets, id, timestamp, body),
  };
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  // Duck-typed: a Headers from another fetch implementation works too (record values are never functions).
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  let v = record[name];
  if (v === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    v = key === undefined ? undefined : record[key];
  }
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Checks a delivery and returns its event: `secrets` is the endpoint's signing secret (`whsec_...`, shown
 * once at creation), or several (e.g. old and new during a rotation); `body` is the raw request body exactly
 * as received (do not parse and re-serialize it). Every `v1,` signature is compared against every secret in
 * constant time. An endpoint with batching on receives an array of events, returned as such.
 * Throws WebhookVerificationError when the delivery is not authentic or not fresh.
 */
export function verifyWebhook(
  secrets: string | readonly string[],
  headers: WebhookHeaders,
  body: string | Uint8Array,
  opts: VerifyOptions = {},
): WebhookEvent | WebhookEvent[] {
  return verifyWith(keysOf(secrets), toleranceOf(opts), headers, body, opts.now);
}

function verifyWith(
  keys: readonly Buffer[],
  tolerance: number,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  at: Date | undefined,
): WebhookEvent | WebhookEvent[] {
  const id = headerOf(headers, "webhook-id");
  const timestamp = headerOf(headers, "webhook-timestamp");
  const signatures = headerOf(headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header");

  const ts = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  const now = Math.floor((at ?? new Date()).getTime() / 1000);
  if (!Number.isSafeInteger(ts) || Math.abs(now - ts) > tolerance)
    throw new WebhookVerificationError("timestamp outside the tolerance");

  const expected = keys.map((k) => hmac(k, id, timestamp, body));
  let ok = false;
  for (const entry of signatures.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    const given = Buffer.from(entry.slice(comma + 1), "base64");
    // No early exit: the time taken does not tell which secret or entry matched.
    for (const e of expected) if (given.length === e.length && timingSafeEqual(given, e)) ok = true;
  }
  if (!ok) throw new WebhookVerificationError("no matching signature");

  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === "string" ? body : Buffer.from(body).toString("utf8"));
  } catch {
    throw new WebhookVerificationError("body is not JSON");
  }
  const isEvent = (v: unknown) =>
    typeof v === "object" && v !== null && typeof (v as { event_type?: unknown }).event_type === "string";
  if (Array.isArray(parsed) ? !parsed.every(isEvent) : !isEvent(parsed))
    throw new WebhookVerificationError("body is not a webhook event");
  return parsed as WebhookEvent | WebhookEvent[];
}

/** verifyWebhook for a receiver that handles single and batched deliveries alike: always an array. */
export function verifyWebhookEvents(
  secrets: string | readonly string[],
  headers: WebhookHeaders,
  body: string | Uint8Array,
  opts: VerifyOptions = {},
): WebhookEvent[] {
  const result = verifyWebhook(secrets, headers, body, opts);
  return Array.isArray(result) ? result : [result];
}

export interface WebhookVerifier {
  verify(headers: WebhookHeaders, body: string | Uint8Array, now?: Date): WebhookEvent | WebhookEvent[];
  /** Always an array, for receivers of single and batched deliveries alike. */
  verifyEvents(headers: WebhookHeaders, body: string | Uint8Array, now?: Date): WebhookEvent[];
}

/**
 * A verifier whose configuration is checked once, when it is made: a secret shorter than 16 bytes or a tolerance
 * that is not a whole number of seconds from 1 to 86400 throws a TypeError at start-up, not at the first delivery.
 */
export function createWebhookVerifier(
  secrets: string | readonly string[],
  opts: Omit<VerifyOptions, "now"> = {},
): WebhookVerifier {
  const keys = keysOf(secrets);
  const tolerance = toleranceOf(opts);
  const verify = (headers: WebhookHeaders, body: string | Uint8Array, now?: Date) =>
    verifyWith(keys, tolerance, headers, body, now);
  return {
    verify,
    verifyEvents: (headers, body, now) => {
      const result = verify(headers, body, now);
      return Array.isArray(result) ? result : [result];
    },
  };
}
