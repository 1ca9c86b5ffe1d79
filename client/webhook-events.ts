// The webhook events as types, without the verification code (which needs node:crypto): the main entry, which
// browsers bundle, exports these.
import type { components, webhooks } from "../generated/api.ts";

export type WebhookEventType = components["schemas"]["WebhookEventType"];
/** The delivered event of one type, as the spec's `webhooks` section declares it. */
export type WebhookEventOf<E extends WebhookEventType> =
  webhooks[E]["post"]["requestBody"]["content"]["application/json"];
/** Any delivered event; narrow it with `event.event_type`. */
export type WebhookEvent = { [E in WebhookEventType]: WebhookEventOf<E> }[WebhookEventType];
