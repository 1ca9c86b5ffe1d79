import type { Tx } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";
import { insertEvent } from "./db.ts";

// TODO(types): payloads are typed from generated webhooks once the spec's webhooks section lands.
export type EventType =
  | "inbound_shipment.items_arrived"
  | "inbound_shipment.arrived_at_warehouse"
  | "inbound_shipment.processed"
  | "inbound_shipment.status_changed";

/** Writes the event into the outbox inside the transaction of the change that caused it. */
export async function recordEvent(trx: Tx, type: EventType, merchantId: string, at: Date, payload: unknown): Promise<void> {
  await insertEvent(trx, { id: newId(at.getTime()), merchant_id: merchantId, event_type: type, payload, created_at: at });
}
