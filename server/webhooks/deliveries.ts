// What merchants see of deliveries, and the two ways they queue one: a test event and a re-delivery (which
// attempts a pending delivery now instead).
import type { WebhookDeliveryAccepted, WebhookDeliveryDetail, WebhookDeliveryList } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import type { ValidatedQuery } from "../shared/contract.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { decodeCursor, toPage } from "../shared/pagination.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";
import { attemptNow, findOpenDelivery } from "./open-delivery.db.ts";
import { recordEventFor } from "./outbox.ts";
import { deliveryDetailToWire, deliveryToWire } from "./wire.ts";

export const TEST_MESSAGE = "This is a test event from the logistics API.";
/** Test events are for checking a receiver, not for load: a few a minute per endpoint. */
export const TEST_EVENTS_PER_WINDOW = 10;
const TEST_EVENT_WINDOW_SECONDS = 60;

export async function listDeliveries(
  db: Executor,
  merchant: Principal,
  endpointId: string,
  query: ValidatedQuery<"listWebhookDeliveries">,
): Promise<WebhookDeliveryList> {
  if (!(await q.findEndpoint(db, merchant.id, endpointId))) throw notFound("Webhook endpoint");
  const { limit } = query;
  const rows = await q.listDeliveries(db, {
    endpointId,
    statuses:
      query.status === undefined ? undefined : query.status === "pending" ? ["pending", "in_flight"] : [query.status],
    before: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: limit + 1,
  });
  return toPage(rows, limit, (d) => ({ at: d.created_at, id: d.id }), deliveryToWire);
}

/** One delivery of the merchant, with the body its attempts send. */
export async function getDelivery(
  db: Executor,
  merchant: Principal,
  deliveryId: string,
): Promise<WebhookDeliveryDetail> {
  const d = await q.findDeliveryDetail(db, merchant.id, deliveryId);
  if (!d) throw notFound("Webhook delivery");
  return deliveryDetailToWire(d);
}

export async function sendTestEvent(
  trx: Tx,
  merchant: Principal,
  endpointId: string,
): Promise<WebhookDeliveryAccepted> {
  const endpoint = await q.findEndpoint(trx, merchant.id, endpointId, true);
  if (!endpoint) throw notFound("Webhook endpoint");
  if (!endpoint.enabled) throw new AppError("conflict", "The endpoint is disabled: enable it to send a test event.");
  // Serialized by the endpoint's lock above, so two requests cannot both take the last one.
  const recent = await q.recentTestEvents(trx, endpointId, TEST_EVENT_WINDOW_SECONDS);
  if (recent.count >= TEST_EVENTS_PER_WINDOW) {
    const wait = Math.max(1, Math.ceil(TEST_EVENT_WINDOW_SECONDS - (Date.now() - recent.oldest!.getTime()) / 1000));
    throw new AppError(
      "rate_limited",
      `At most ${TEST_EVENTS_PER_WINDOW} test events a minute per endpoint. Retry in ${wait} s.`,
      [],
      { "Retry-After": String(wait) },
    );
  }
  const { eventId, deliveryId } = await recordEventFor(trx, "webhook.test", merchant.id, endpointId, new Date(), {
    message: TEST_MESSAGE,
  });
  return { success: true, event_id: eventId, delivery_id: deliveryId };
}

/** A new delivery of the same event to the same endpoint, with a fresh retry schedule; or the pending one, now. */
export async function redeliver(trx: Tx, merchant: Principal, deliveryId: string): Promise<WebhookDeliveryAccepted> {
  const earlier = await q.findDelivery(trx, merchant.id, deliveryId);
  if (!earlier) throw notFound("Webhook delivery");
  // The endpoint's row lock serializes re-deliveries of its events: one open delivery per event at most.
  const endpoint = await q.findEndpoint(trx, merchant.id, earlier.endpoint_id, true);
  if (!endpoint) throw notFound("Webhook delivery");
  if (!endpoint.enabled) throw new AppError("conflict", "The endpoint is disabled: enable it to re-deliver.");
  // Still pending: no second delivery, that one is attempted now, unless the receiver asked for time itself.
  const open = await findOpenDelivery(trx, earlier.event_id, earlier.endpoint_id);
  if (open?.receiverWait) {
    throw new AppError(
      "conflict",
      `The receiver asked for time with Retry-After: it is not called again before ${formatTimestamp(open.receiverWait.until)}. Re-deliver then, or let the next attempt come as scheduled.`,
      [],
      { "Retry-After": String(open.receiverWait.seconds) },
    );
  }
  if (open) {
    await attemptNow(trx, open, earlier.endpoint_id);
    return { success: true, event_id: earlier.event_id, delivery_id: open.id };
  }
  const now = new Date();
  const id = newId(now.getTime());
  const retryBase = await q.attemptsSoFar(trx, earlier.event_id, earlier.endpoint_id);
  await q.insertDeliveries(trx, [
    {
      id,
      event_id: earlier.event_id,
      endpoint_id: earlier.endpoint_id,
      merchant_id: merchant.id,
      retry_base: retryBase,
      created_at: now,
    },
  ]);
  return { success: true, event_id: earlier.event_id, delivery_id: id };
}
