// Reading shipments: one by id, or the merchant's list for polling.
import type { InboundShipment, InboundShipmentList, InboundStatusHistory } from "../../generated/api.ts";
import { formatTimestamp } from "../shared/time.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor } from "../db/transaction.ts";
import type { ValidatedQuery } from "../shared/contract.ts";
import { notFound } from "../shared/errors.ts";
import { decodeCursor, toPage } from "../shared/pagination.ts";
import * as q from "./shipment.repository.ts";
import { toWire } from "./wire.ts";

export async function getShipment(db: Executor, actor: Principal, id: string): Promise<InboundShipment> {
  const s = await q.findShipment(db, actor, id);
  if (!s) throw notFound("Inbound shipment");
  return toWire(s);
}

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

export async function listShipments(
  db: Executor,
  merchant: Principal,
  query: ValidatedQuery<"listInboundShipments">,
): Promise<InboundShipmentList> {
  const { limit } = query;
  const rows = await q.listShipments(db, {
    merchantId: merchant.id,
    statuses: query.status,
    merchantsRef: query.merchants_ref,
    // Nothing changed before 1970; earlier instants (year 0 included, which PostgreSQL cannot read) mean "all".
    updatedSince:
      query.updated_since === undefined ? undefined : new Date(Math.max(0, Date.parse(query.updated_since))),
    after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: limit + 1,
  });
  return toPage(rows, limit, (s) => ({ at: s.row.updated_at, id: s.row.id }), toWire);
}
