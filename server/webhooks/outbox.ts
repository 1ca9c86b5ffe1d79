// The transactional outbox: every resource records its events here, in the transaction of the change
// that caused them, so an event and its deliveries exist exactly when the change committed. The commit
// wakes the dispatchers (a trigger on webhook_deliveries sends NOTIFY).
import type { webhooks } from "../../generated/api.ts";
import type { Tx } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";
import { currentTraceParent } from "../tracing/tracer.ts";
import { insertDeliveries, insertEvent, subscribedEndpoints } from "./db.ts";
import type { EventType } from "./tables.ts";

export type { EventType };
export type EventEnvelope<E extends EventType> = NonNullable<
  webhooks[E]["post"]
>["requestBody"]["content"]["application/json"];
export type PayloadOf<E extends EventType> = EventEnvelope<E>["payload"];

/** Records the event and queues one delivery to each enabled endpoint of the merchant subscribed to it. */
export async function recordEvent<E extends EventType>(
  trx: Tx,
  type: E,
  merchantId: string,
  at: Date,
  payload: PayloadOf<E>,
): Promise<string> {
  const id = await insertEventRow(trx, type, merchantId, at, payload);
  const endpoints = await subscribedEndpoints(trx, merchantId, type);
  await insertDeliveries(
    trx,
    endpoints.map((endpointId) => ({
      id: newId(at.getTime()),
      event_id: id,
      endpoint_id: endpointId,
      merchant_id: merchantId,
      created_at: at,
    })),
  );
  return id;
}

/** Records an event for one endpoint only, whatever it subscribed to (the `_test` operation). */
export async function recordEventFor<E extends EventType>(
  trx: Tx,
  type: E,
  merchantId: string,
  endpointId: string,
  at: Date,
  payload: PayloadOf<E>,
) {
  const eventId = await insertEventRow(trx, type, merchantId, at, payload);
  const deliveryId = newId(at.getTime());
  await insertDeliveries(trx, [
    { id: deliveryId, event_id: eventId, endpoint_id: endpointId, merchant_id: merchantId, created_at: at },
  ]);
  return { eventId, deliveryId };
}

async function insertEventRow(
  trx: Tx,
  type: EventType,
  merchantId: string,
  at: Date,
  payload: unknown,
): Promise<string> {
  const id = newId(at.getTime());
  await insertEvent(trx, {
    id,
    merchant_id: merchantId,
    event_type: type,
    payload: JSON.stringify(payload),
    created_at: at,
    trace_parent: currentTraceParent(),
  });
  return id;
}
