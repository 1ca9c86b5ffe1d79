// The bytes of one request: the spec's envelope around the stored payload, or an array of them for a
// batching endpoint, and the Standard Webhooks headers signing exactly those bytes.
import { webhookHeaders } from "./signing.ts";
import { formatTimestamp } from "../shared/time.ts";
import type { EventType } from "./tables.ts";

export interface EnvelopeParts {
  eventId: string;
  eventType: EventType;
  endpointId: string;
  eventAt: Date;
  retryCount: number;
  /** The payload's JSON text as stored: spliced in, never parsed and re-serialized. */
  payloadJson: string;
}

const MAX_RETRY_COUNT = 1000; // the spec's maximum

/** `{event_id, event_type, webhook_id, ts, retry_count, payload}` in the spec's order. */
export function envelopeJson(p: EnvelopeParts): string {
  const head = JSON.stringify({
    event_id: p.eventId,
    event_type: p.eventType,
    webhook_id: p.endpointId,
    ts: formatTimestamp(p.eventAt),
    retry_count: Math.min(p.retryCount, MAX_RETRY_COUNT),
  });
  return `${head.slice(0, -1)},"payload":${p.payloadJson}}`;
}

export function batchJson(parts: EnvelopeParts[]): string {
  return `[${parts.map(envelopeJson).join(",")}]`;
}

export interface Signing {
  secret: string;
  /** Signs beside `secret` until it expires (the 24 hours after a rotation). */
  previousSecret: string | null;
}

/** Headers for one attempt: `id` is the event id, or the batch id for a batch. */
export function signedHeaders(signing: Signing, id: string, body: string, now = new Date()): Record<string, string> {
  const secrets = signing.previousSecret ? [signing.secret, signing.previousSecret] : [signing.secret];
  return webhookHeaders(secrets, id, body, now);
}
