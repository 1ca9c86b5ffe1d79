// What shop staff read about webhooks in sentences made from the catalogue's words (portal/src/words, `webhooks`
// and the event types, delivery states and failure classes): a delivery's state, a retry's refusal. A form's
// problems are said as every other answer is (app/data.ts problemsOf).
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

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/;

/**
 * Why a retry was refused, in plain words. The service answers 409 when sending is turned off, or when the
 * receiving system asked for time (its message names until when; the delivery's next try is the fallback).
 */
export function retryRefusedWords(message: string | undefined, nextTry: string | null, w: Words): string {
  if (message && /asked for time/i.test(message)) {
    const until = ISO_TIME.exec(message)?.[0] ?? nextTry;
    return w.t.webhooks.askedToWait(until ? w.date(until) : undefined);
  }
  if (message && /disabled/i.test(message)) return w.t.webhooks.retryOff;
  return w.t.webhooks.retryRefused;
}

/** How long the secret before a rotation keeps signing beside the new one (server/webhooks/endpoints.ts, the spec). */
export const ROTATION_OVERLAP_HOURS = 24;
