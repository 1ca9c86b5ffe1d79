// The warehouse's reads: what is coming across merchants, and the shipment a scanned code names. The warehouse
// sees every merchant's shipments with their merchant, and no prices or merchant actions.
import type {
  AmbiguousReference,
  WarehouseInboundShipment,
  WarehouseInboundShipmentList,
} from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor } from "../db/transaction.ts";
import type { ValidatedQuery } from "../shared/contract.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { decodeCursor, toPage } from "../shared/pagination.ts";
import { formatTimestamp } from "../shared/time.ts";
import { arrivedByProduct } from "./shipment.ts";
import * as q from "./db.ts";
import type { Shipment, ShipmentRow } from "./db.ts";
import { RECEIVING } from "./states.ts";
import { problemToWire } from "./wire.ts";

const ID = /^[0-9a-f]{24}$/;
/** Candidates an ambiguous reference lists at most (the spec's AmbiguousReference). */
const MAX_CANDIDATES = 20;

export function toWarehouseWire(s: Shipment): WarehouseInboundShipment {
  const arrived = arrivedByProduct(s);
  return {
    id: s.row.id,
    merchant_id: s.row.merchant_id,
    merchants_ref: s.row.merchants_ref,
    sender_name: s.row.sender_name,
    status: s.row.status,
    expected_at_wh: s.row.expected_at_wh,
    lines: s.lines.map((l) => ({
      product_id: l.product_id,
      merchants_id: l.merchants_id,
      name: l.name,
      gtin: l.gtin,
      qty: l.qty,
      arrivedQty: arrived.get(l.product_id) ?? 0,
    })),
    problems: s.problems.map(problemToWire),
    created_at: formatTimestamp(s.row.created_at),
    updated_at: formatTimestamp(s.row.updated_at),
  };
}

// Cursors of this list name it, so that the merchants' list refuses them (shared/pagination.ts).
const CURSOR_NAME = "expected";
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export async function listForWarehouse(
  db: Executor,
  query: ValidatedQuery<"listWarehouseInboundShipments">,
): Promise<WarehouseInboundShipmentList> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, CURSOR_NAME);
  const rows = await q.listForWarehouse(db, {
    expectedFrom: query.expected_from,
    expectedTo: query.expected_to,
    statuses: query.status,
    merchantId: query.merchant_id?.toLowerCase(),
    search: query.q,
    after: after && { date: dayOf(after.at), id: after.id },
    limit: query.limit + 1,
  });
  const positionOf = (s: Shipment) => ({
    at: new Date(`${s.row.expected_at_wh ?? q.NO_EXPECTED_DATE}T00:00:00Z`),
    id: s.row.id,
  });
  return toPage(rows, query.limit, positionOf, toWarehouseWire, CURSOR_NAME);
}

const candidate = (r: ShipmentRow): AmbiguousReference["candidates"][number] => ({
  id: r.id,
  merchant_id: r.merchant_id,
  merchants_ref: r.merchants_ref,
  sender_name: r.sender_name,
  status: r.status,
  expected_at_wh: r.expected_at_wh,
});

/**
 * The shipment a scanned code names: its id (a label's barcode; in any status), else a reference that exactly one
 * shipment still receiving goods has, of any merchant. Several: 409 ambiguous_reference with the candidates.
 */
export async function lookUp(db: Executor, operator: Principal, scanned: string): Promise<WarehouseInboundShipment> {
  const code = scanned.trim();
  if (ID.test(code)) {
    const s = await q.findShipment(db, operator, code);
    if (s) return toWarehouseWire(s);
  }
  const rows = await q.findByReference(db, code, RECEIVING, MAX_CANDIDATES);
  if (rows.length > 1)
    throw new AppError(
      "ambiguous_reference",
      `Several shipments that can still receive goods have the reference ${code}: scan the shipment's label, or choose one of the candidates.`,
      [],
      {},
      { candidates: rows.map(candidate) },
    );
  const s = rows[0] && (await q.findShipment(db, operator, rows[0].id));
  if (!s) throw notFound("Inbound shipment with this id or reference");
  return toWarehouseWire(s);
}
