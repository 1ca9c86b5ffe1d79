// The inbound events' payloads, built from a shipment as it is after the change.
import type { Tx } from "../db/transaction.ts";
import { formatTimestamp } from "../shared/time.ts";
import { recordEvent, type PayloadOf } from "../webhooks/outbox.ts";
import type * as q from "./db.ts";
import { arrivedByProduct } from "./shipment.ts";
import { toWire, type Shipment } from "./wire.ts";

/** The events merchants follow most get their own type, with the whole shipment. */
export async function recordMilestone(trx: Tx, s: Shipment, now: Date): Promise<void> {
  if (s.row.status === "arrived_at_warehouse") {
    await recordEvent(trx, "inbound_shipment.arrived_at_warehouse", s.row.merchant_id, now, { shipment: toWire(s) });
  } else if (s.row.status === "processed") {
    await recordEvent(trx, "inbound_shipment.processed", s.row.merchant_id, now, { shipment: toWire(s) });
  }
}

/** New arrival entries and the updated totals of the lines they touched: enough to update stock without a GET. */
export function itemsArrivedPayload(
  after: Shipment,
  entries: Omit<q.ArrivalRow, "shipment_id">[],
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
  };
}
