// Loading, locking and moving one shipment: the steps every inbound operation shares.
import type { Principal } from "../accounts/domain.ts";
import type { Tx } from "../db/transaction.ts";
import { notFound } from "../shared/errors.ts";
import { recordEvent } from "../webhooks/outbox.ts";
import * as q from "./db.ts";
import type { Status } from "./states.ts";
import type { Shipment } from "./wire.ts";

export async function loadOne(db: Tx, row: q.ShipmentRow): Promise<Shipment> {
  return { row, ...(await q.findDetails(db, row.id)) };
}

/** A merchant sees only its own shipments; an operator sees every merchant's. */
export function scopeOf(actor: Principal): string | undefined {
  return actor.role === "merchant" ? actor.id : undefined;
}

/** Takes the row lock that serializes writers of one shipment, for the rest of the transaction. */
export async function lockShipment(trx: Tx, actor: Principal, id: string): Promise<q.ShipmentRow> {
  const row = await q.lockShipmentRow(trx, id, scopeOf(actor));
  if (!row) throw notFound("Inbound shipment");
  return row;
}

export function arrivedByProduct(s: Shipment): Map<string, number> {
  const sums = new Map<string, number>();
  for (const a of s.arrivals) sums.set(a.product_id, (sums.get(a.product_id) ?? 0) + a.change);
  return sums;
}

/** Moves the shipment, records history and the status_changed event; returns the moved shipment. */
export async function setStatus(
  trx: Tx,
  s: Shipment,
  to: Status,
  actor: Principal,
  now: Date,
  extra: { closing?: boolean } = {},
): Promise<Shipment> {
  const from = s.row.status;
  await q.updateShipment(trx, s.row.id, { status: to, updated_at: now, ...extra });
  await q.insertStatusHistory(trx, s.row.id, from, to, actor.name, now);
  const row = { ...s.row, status: to, updated_at: now, ...extra };
  await recordEvent(trx, "inbound_shipment.status_changed", row.merchant_id, now, {
    shipment_id: row.id,
    merchants_ref: row.merchants_ref,
    from_status: from,
    status: to,
  });
  return { ...s, row };
}
