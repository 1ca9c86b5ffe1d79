// What shop staff read about webhooks beyond the words catalogue (portal/src/words: event types, delivery states
// and failure classes in the browser's language): a delivery's state in a sentence, refusals, the form's problems.
import { ApiError } from "../../app/data.ts";
import { formatTime, type Problems } from "../../api.ts";
import type { Catalogue } from "../../words/catalogue.ts";
import type { WebhookDelivery } from "../../../../generated/api.ts";

/** Why the last try failed, in words; undefined when it did not (or there was none). */
export function failureWords(d: WebhookDelivery, t: Catalogue): string | undefined {
  if (d.status === "succeeded" || !d.failure_class) return undefined;
  // Busy, not refusing: a 429 (too many requests) or 503 (unavailable for now) asks to be called again later.
  if (d.last_response_status === 429) return "Your system said it was busy and asked us to wait.";
  if (d.last_response_status === 503) return "Your system said it was unavailable for the moment.";
  return t.failureClasses[d.failure_class];
}

/** The state of one delivery in a sentence: when it went, or when the next try is. */
export function whenWords(d: WebhookDelivery): string {
  if (d.status === "succeeded")
    return `${formatTime(d.last_attempt_at)}${d.attempts > 1 ? `, at try ${d.attempts}` : ""}`;
  // The first attempt counts from when it starts; its outcome (and last_attempt_at) comes when it ends.
  if (d.status === "pending" && d.attempts > 0 && d.last_attempt_at === null) return "Being sent now";
  const tries = d.attempts === 0 ? "Not tried yet" : `Tried ${d.attempts === 1 ? "once" : `${d.attempts} times`}`;
  if (d.status === "failed") return `${tries}, last ${formatTime(d.last_attempt_at)}; no more tries`;
  return d.next_attempt_at ? `${tries}; next try ${formatTime(d.next_attempt_at)}` : tries;
}

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/;

/**
 * Why a retry was refused, in plain words. The service answers 409 when sending is turned off, or when the
 * receiving system asked for time (its message names until when; the delivery's next try is the fallback).
 */
export function retryRefusedWords(message: string | undefined, nextTry: string | null): string {
  if (message && /asked for time/i.test(message)) {
    const until = ISO_TIME.exec(message)?.[0] ?? nextTry;
    return `Your system asked us to wait before sending again${until ? `, until ${formatTime(until)}` : ""}. We try again by ourselves then; you can also press Retry now after that time.`;
  }
  if (message && /disabled/i.test(message)) return "Sending to this address is turned off: turn it back on to retry.";
  return "This event could not be sent again just now. Try again in a moment.";
}

/**
 * An endpoint form's refusal in plain words: the API's field messages are for developers (schema keywords,
 * patterns), so each field the forms show gets a sentence of its own here.
 */
export function formProblems(e: unknown): Problems | undefined {
  if (!e) return undefined;
  if (!(e instanceof ApiError))
    return { message: e instanceof Error ? e.message : "That did not work. Try again in a moment.", fields: {} };
  const fields: Record<string, string> = {};
  for (const d of e.body?.details ?? []) {
    if (d.path === "/body/url")
      fields[d.path] =
        d.code === "destination_not_allowed"
          ? "We only send to addresses on the public internet: this one is inside a private network."
          : "Write the whole address, starting with https:// (for example https://erp.example.com/hooks/logistics).";
    else if (d.path.startsWith("/body/event_types"))
      fields["/body/event_types"] = d.code === "maxItems" ? "Choose at most 5 events." : "Choose at least one event.";
  }
  const message =
    e.status === 400
      ? "Please check the marked fields."
      : (e.body?.message ?? "That did not work. Try again in a moment.");
  return { message, fields };
}

/** How long the secret before a rotation keeps signing beside the new one (server/webhooks/endpoints.ts, the spec). */
export const ROTATION_OVERLAP_HOURS = 24;
