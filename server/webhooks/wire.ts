// Stored rows to the spec's wire shapes.
import type { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint } from "../../generated/api.ts";
import { formatTimestamp } from "../shared/time.ts";
import type { DeliveryDetailView, DeliveryView, EndpointView } from "./db.ts";
import { envelopeJson } from "./envelope.ts";

export function endpointToWire(e: EndpointView): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    event_types: e.event_types,
    description: e.description,
    enabled: e.enabled,
    batching: e.batching,
    has_basic_auth: e.has_basic_auth,
    disabled_reason: e.disabled_reason,
    created_at: formatTimestamp(e.created_at),
    updated_at: formatTimestamp(e.updated_at),
  };
}

const orNull = (d: Date | null) => (d ? formatTimestamp(d) : null);

export function deliveryToWire(d: DeliveryView): WebhookDelivery {
  const open = d.status === "pending" || d.status === "in_flight";
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    webhook_id: d.endpoint_id,
    shipment: d.shipment_id === null ? null : { id: d.shipment_id, merchants_ref: d.shipment_ref ?? "" },
    // An attempt in progress is still pending to the merchant: it is not acknowledged yet.
    status: open ? "pending" : d.status === "succeeded" ? "succeeded" : "failed",
    attempts: d.attempts,
    last_attempt_at: orNull(d.last_attempt_at),
    next_attempt_at: open ? orNull(d.due_at) : null,
    last_response_status: d.last_response_status,
    last_duration_ms: d.last_duration_ms,
    last_error: d.last_error,
    failure_class: d.last_failure_class,
    last_response_excerpt: d.last_response_excerpt,
    created_at: formatTimestamp(d.created_at),
  };
}

/**
 * The delivery and the envelope its attempts send, built as the dispatcher builds it (envelope.ts): the last
 * attempt's, or the next one's while nothing is in flight (`retry_count` counts on over re-deliveries).
 */
export function deliveryDetailToWire(d: DeliveryDetailView): WebhookDeliveryDetail {
  const attempt = d.status === "pending" ? d.attempts : Math.max(d.attempts - 1, 0);
  const body = envelopeJson({
    eventId: d.event_id,
    eventType: d.event_type,
    endpointId: d.endpoint_id,
    eventAt: d.event_at,
    retryCount: d.retry_base + attempt,
    payloadJson: d.payload,
  });
  return { ...deliveryToWire(d), payload: JSON.parse(body) as WebhookDeliveryDetail["payload"] };
}
