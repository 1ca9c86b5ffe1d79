// The one place inbound events leave for the outbox: a change's events, their payloads built from the
// shipment as it is after the change, recorded in the order the change raised them.
import type { Tx } from "../db/transaction.ts";
import { formatTimestamp } from "../shared/time.ts";
import { recordEvent, type EventType, type PayloadOf } from "../webhooks/outbox.ts";
import { arrivedByProduct, type ShipmentChange, type ShipmentEvent } from "./shipment.ts";
import type { Shipment } from "./db.ts";
import type { RecordedBy } from "./tables.ts";
import { toWire } from "./wire.ts";

type OutboxRecord = { [E in EventType]: { type: E; payload: PayloadOf<E> } }[EventType];

export async function raiseEvents(trx: Tx, c: ShipmentChange): Promise<void> {
  for (const e of c.events) {
    const { type, payload } = outboxRecord(c.s, e);
    await recordEvent(trx, type, c.s.row.merchant_id, c.at, payload);
  }
}

function outboxRecord(s: Shipment, e: ShipmentEvent): OutboxRecord {
  switch (e.type) {
    case "inbound_shipment.status_changed":
      return {
        type: e.type,
        payload: { shipment_id: s.row.id, merchants_ref: s.row.merchants_ref, from_status: e.from, status: e.to },
      };
    case "inbound_shipment.arrived_at_warehouse":
    case "inbound_shipment.processed":
      return { type: e.type, payload: { shipment: toWire(s) } };
    case "inbound_shipment.items_arrived":
      return { type: e.type, payload: itemsArrivedPayload(s, e.entries, e.recordedBy) };
  }
}

/** New arrival entries and the updated totals of the lines they touched: enough to update stock without a GET. */
function itemsArrivedPayload(
  after: Shipment,
  entries: { product_id: string; ts: Date; change: number }[],
  recordedBy: RecordedBy,
): PayloadOf<"inbound_shipment.items_arrived"> {
  const touched = new Set(entries.map((e) => e.product_id));
  const totals = arrivedByProduct(after);
  const lineOf = new Map(after.lines.map((l) => [l.product_id, l]));
  return {
    shipment_id: after.row.id,
    merchants_ref: after.row.merchants_ref,
    status: after.row.status,
    arrivals: entries.map((e) => ({
      merchants_id: lineOf.get(e.product_id)!.merchants_id,
      product_id: e.product_id,
      ts: formatTimestamp(e.ts),
      change: e.change,
    })),
    products: after.lines
      .filter((l) => touched.has(l.product_id))
      .map((l) => ({
        merchants_id: l.merchants_id,
        product_id: l.product_id,
        qty: l.qty,
        arrivedQty: totals.get(l.product_id) ?? 0,
      })),
    recorded_by: recordedBy,
  };
}
