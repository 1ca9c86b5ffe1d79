// What shop staff read about webhooks in sentences made from the catalogue's words (portal/src/words, `webhooks`
// and the event types, delivery states and failure classes): a delivery's state, a retry's refusal. A form's
// problems are said as every other answer is (app/data.ts problemsOf).
import type { ApiError } from "../../app/data.ts";
import type { Words } from "../../words/index.ts";
import type { WebhookDelivery } from "../../../../generated/api.ts";

/** Why the last try failed, in words; undefined when it did not (or there was none). */
export function failureWords(d: WebhookDelivery, w: Words): string | undefined {
  if (d.status === "succeeded" || !d.failure_class) return undefined;
  // Busy, not refusing: a 429 (too many requests) or 503 (unavailable for now) asks to be called again later.
  if (d.last_response_status === 429) return w.t.webhooks.busy;
  if (d.last_response_status === 503) return w.t.webhooks.unavailable;
  return w.t.failureClasses[d.failure_class];
}

/** The state of one delivery in a sentence: when it went, or when the next try is. */
export function whenWords(d: WebhookDelivery, w: Words): string {
  const t = w.t.webhooks;
  if (d.status === "succeeded") return t.sentAt(w.date(d.last_attempt_at), d.attempts);
  // The first attempt counts from when it starts; its outcome (and last_attempt_at) comes when it ends.
  if (d.status === "pending" && d.attempts > 0 && d.last_attempt_at === null) return t.beingSent;
  if (d.status === "failed") return t.failedNoMore(d.attempts, w.date(d.last_attempt_at));
  return d.next_attempt_at ? t.nextTry(d.attempts, w.date(d.next_attempt_at)) : t.triedTimes(d.attempts);
}

/**
 * Why a retry was refused (409), in plain words, as the spec tells the two apart: with Retry-After, the receiving
 * system asked for time (said with the delivery's next try, which is not before that time, or else the time the
 * header names); without, sending to the endpoint is turned off.
 */
export function retryRefusedWords(refusal: ApiError, nextTry: string | null, w: Words): string {
  if (refusal.retryAfterMs === undefined) return w.t.webhooks.retryOff;
  return w.t.webhooks.askedToWait(w.date(nextTry ?? new Date(Date.now() + refusal.retryAfterMs).toISOString()));
}

/** How long the secret before a rotation keeps signing beside the new one (server/webhooks/endpoints.ts, the spec). */
export const ROTATION_OVERLAP_HOURS = 24;
