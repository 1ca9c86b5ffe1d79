// Reading shipments: one by id, or the merchant's list for polling.
import type { InboundShipment, InboundShipmentList, InboundStatusHistory } from "../../generated/api.ts";
import { formatTimestamp } from "../shared/time.ts";
import type { Principal } from "../accounts/domain.ts";
import { CoherentReads } from "../db/coherent-reads.ts";
import type { Executor } from "../db/transaction.ts";
import type { ValidatedQuery } from "../shared/contract.ts";
import { notFound } from "../shared/errors.ts";
import { decodeCursor, toPage } from "../shared/pagination.ts";
import * as q from "./db.ts";
import type { ListOrder, Shipment } from "./db.ts";
import { toWire } from "./wire.ts";

/**
 * GET shipment's documents, kept on the embedded database while nothing changes it (db/coherent-reads.ts), by who
 * may see them: a merchant its own, the warehouse any. Bounded: a few MB at most.
 */
const documents = new CoherentReads<InboundShipment>(2048);

export function getShipment(db: Executor, actor: Principal, id: string): Promise<InboundShipment> {
  const key = actor.role === "merchant" ? `M\n${actor.id}\n${id}` : `*\n${id}`;
  return documents.read(db, key, async () => {
    const s = await q.findShipment(db, actor, id);
    if (!s) throw notFound("Inbound shipment");
    return toWire(s);
  });
}

/** How many GET shipment documents are kept for `db` (tests). */
export const keptDocuments = (db: Executor): number => documents.size(db);

/** Who moved it, by the kind of principal recorded (M-..., W-...); anything else is the service itself. */
const byOf = (actor: string): InboundStatusHistory["items"][number]["by"] =>
  actor.startsWith("M-") ? "merchant" : actor.startsWith("W-") ? "warehouse" : "service";

export async function getStatusHistory(db: Executor, actor: Principal, id: string): Promise<InboundStatusHistory> {
  if (!(await q.findShipment(db, actor, id))) throw notFound("Inbound shipment");
  const rows = await q.listStatusHistory(db, id);
  return {
    items: rows.map((r) => ({
      from: r.from_status,
      to: r.to_status,
      at: formatTimestamp(r.created_at),
      by: byOf(r.actor),
    })),
  };
}

/**
 * The name an order's cursors carry, so that another order refuses them (shared/pagination.ts): none for the
 * default order, whose cursors issued before `sort` existed keep working.
 */
export const cursorNameOf = (order: ListOrder): string | undefined => (order === "updated_at" ? undefined : order);

export async function listShipments(
  db: Executor,
  merchant: Principal,
  query: ValidatedQuery<"listInboundShipments">,
): Promise<InboundShipmentList> {
  const { limit } = query;
  const order = query.sort;
  const cursorName = cursorNameOf(order);
  const rows = await q.listShipments(db, {
    merchantId: merchant.id,
    order,
    statuses: query.status,
    merchantsRef: query.merchants_ref,
    search: query.q,
    // Nothing changed before 1970; earlier instants (year 0 included, which PostgreSQL cannot read) mean "all".
    updatedSince:
      query.updated_since === undefined ? undefined : new Date(Math.max(0, Date.parse(query.updated_since))),
    after: query.cursor === undefined ? undefined : decodeCursor(query.cursor, cursorName),
    limit: limit + 1,
  });
  const positionOf = (s: Shipment) => ({
    at: order === "updated_at" ? s.row.updated_at : s.row.created_at,
    id: s.row.id,
  });
  return toPage(rows, limit, positionOf, toWire, cursorName);
}
