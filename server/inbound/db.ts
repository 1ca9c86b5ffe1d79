// Inbound shipment queries. Every function that reads merchant data takes the merchant id when the
// caller is a merchant, so tenant isolation is enforced in SQL, not only in the rules above it.
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { Database } from "../db/schema.ts";
import { precompiled } from "../db/precompiled.ts";
import type { Executor } from "../db/transaction.ts";
import type { Position } from "../shared/pagination.ts";

export type ShipmentRow = Selectable<Database["inbound_shipments"]>;
type Status = ShipmentRow["status"];

export interface LineRow {
  shipment_id: string;
  product_id: string;
  position: number;
  qty: number;
  purchase_price_cents: number | null;
  merchants_id: string;
  name: string;
  gtin: string;
}

export interface ArrivalRow {
  shipment_id: string;
  product_id: string;
  ts: Date;
  change: number;
}

export type ProblemRow = Selectable<Database["inbound_problems"]>;

const lockForMerchant = precompiled<ShipmentRow, [string, string]>(
  (db, id, merchantId) =>
    db
      .selectFrom("inbound_shipments")
      .selectAll()
      .where("id", "=", id)
      .where("merchant_id", "=", merchantId)
      .forUpdate(),
  2,
);
const lockAny = precompiled<ShipmentRow, [string]>(
  (db, id) => db.selectFrom("inbound_shipments").selectAll().where("id", "=", id).forUpdate(),
  1,
);

/** Reads one shipment and takes the row lock that serializes writers of that shipment. */
export async function lockShipmentRow(
  db: Executor,
  id: string,
  merchantId: string | undefined,
): Promise<ShipmentRow | undefined> {
  const rows = merchantId === undefined ? await lockAny(db, id) : await lockForMerchant(db, id, merchantId);
  return rows[0];
}

export async function insertShipment(db: Executor, row: Omit<ShipmentRow, "closing">): Promise<void> {
  await db.insertInto("inbound_shipments").values(row).execute();
}

export async function updateShipment(
  db: Executor,
  id: string,
  changes: Partial<Pick<ShipmentRow, "merchants_ref" | "sender_name" | "status" | "expected_at_wh" | "closing">> & {
    updated_at: Date;
  },
): Promise<void> {
  await db.updateTable("inbound_shipments").set(changes).where("id", "=", id).execute();
}

export interface Details {
  lines: LineRow[];
  arrivals: ArrivalRow[];
  problems: ProblemRow[];
}

// Lines, arrivals and problems of a shipment as JSON arrays in the same row: one round trip per read.
const detailColumns = (eb: ExpressionBuilder<Database & { s: Database["inbound_shipments"] }, "s">) => [
  jsonArrayFrom(
    eb
      .selectFrom("inbound_lines as l")
      .innerJoin("products as p", "p.id", "l.product_id")
      .select([
        "l.shipment_id",
        "l.product_id",
        "l.position",
        "l.qty",
        "l.purchase_price_cents",
        "p.merchants_id",
        "p.name",
        "p.gtin",
      ])
      .whereRef("l.shipment_id", "=", "s.id")
      .orderBy("l.position"),
  ).as("lines"),
  jsonArrayFrom(
    eb
      .selectFrom("inbound_arrivals as a")
      .select(["a.shipment_id", "a.product_id", "a.ts", "a.change"])
      .whereRef("a.shipment_id", "=", "s.id")
      .orderBy("a.ts")
      .orderBy("a.id"),
  ).as("arrivals"),
  jsonArrayFrom(
    eb
      .selectFrom("inbound_problems as pr")
      .selectAll("pr")
      .whereRef("pr.shipment_id", "=", "s.id")
      .orderBy("pr.created_at")
      .orderBy("pr.id"),
  ).as("problems"),
];

type JsonDetails = { lines: unknown[]; arrivals: unknown[]; problems: unknown[] };

// JSON carries timestamps as strings and bigints as numbers: turn them back into the row types.
function parseDetails(r: JsonDetails): Details {
  return {
    lines: (r.lines as LineRow[]).map((l) => ({
      ...l,
      purchase_price_cents: l.purchase_price_cents === null ? null : Number(l.purchase_price_cents),
    })),
    arrivals: (r.arrivals as (Omit<ArrivalRow, "ts"> & { ts: string })[]).map((a) => ({ ...a, ts: new Date(a.ts) })),
    problems: (
      r.problems as (Omit<ProblemRow, "created_at" | "resolved_at"> & {
        created_at: string;
        resolved_at: string | null;
      })[]
    ).map((p) => ({
      ...p,
      created_at: new Date(p.created_at),
      resolved_at: p.resolved_at === null ? null : new Date(p.resolved_at),
    })),
  };
}

function splitRow(r: ShipmentRow & JsonDetails): { row: ShipmentRow } & Details {
  const { lines, arrivals, problems, ...row } = r;
  return { row, ...parseDetails({ lines, arrivals, problems }) };
}

const detailedForMerchant = precompiled<ShipmentRow & JsonDetails, [string, string]>(
  (db, id, merchantId) =>
    db
      .selectFrom("inbound_shipments as s")
      .selectAll("s")
      .select(detailColumns)
      .where("s.id", "=", id)
      .where("s.merchant_id", "=", merchantId),
  2,
);
const detailedAny = precompiled<ShipmentRow & JsonDetails, [string]>(
  (db, id) => db.selectFrom("inbound_shipments as s").selectAll("s").select(detailColumns).where("s.id", "=", id),
  1,
);

/** One shipment with its details in one query; undefined when absent or another merchant's. */
export async function findShipmentDetailed(db: Executor, id: string, merchantId: string | undefined) {
  const [r] = merchantId === undefined ? await detailedAny(db, id) : await detailedForMerchant(db, id, merchantId);
  return r && splitRow(r);
}

const detailsOf = precompiled<JsonDetails & { id: string }, [string]>(
  (db, id) => db.selectFrom("inbound_shipments as s").select("s.id").select(detailColumns).where("s.id", "=", id),
  1,
);

/** Details of a shipment already read (e.g. locked). */
export async function findDetails(db: Executor, id: string): Promise<Details> {
  const [r] = await detailsOf(db, id);
  if (!r) throw new Error(`shipment ${id} vanished inside its own transaction`);
  return parseDetails(r);
}

export async function upsertLines(
  db: Executor,
  shipmentId: string,
  lines: { product_id: string; position: number; qty: number; purchase_price_cents: number | null }[],
): Promise<void> {
  if (lines.length === 0) return;
  await db
    .insertInto("inbound_lines")
    .values(lines.map((l) => ({ shipment_id: shipmentId, ...l })))
    .onConflict((oc) =>
      oc.columns(["shipment_id", "product_id"]).doUpdateSet((eb) => ({
        position: eb.ref("excluded.position"),
        qty: eb.ref("excluded.qty"),
        purchase_price_cents: eb.ref("excluded.purchase_price_cents"),
      })),
    )
    .execute();
}

export async function deleteLines(db: Executor, shipmentId: string, productIds: string[]): Promise<void> {
  if (productIds.length === 0) return;
  await db
    .deleteFrom("inbound_lines")
    .where("shipment_id", "=", shipmentId)
    .where("product_id", "in", productIds)
    .execute();
}

export async function insertArrivals(db: Executor, rows: (ArrivalRow & { operator_id: string })[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto("inbound_arrivals").values(rows).execute();
}

export async function insertStatusHistory(
  db: Executor,
  shipmentId: string,
  from: Status | null,
  to: Status,
  actor: string,
  at: Date,
): Promise<void> {
  await db
    .insertInto("inbound_status_history")
    .values({ shipment_id: shipmentId, from_status: from, to_status: to, actor, created_at: at })
    .execute();
}

/** A shipment's status changes, oldest first (the index on shipment_id, id keeps the order). */
export async function listStatusHistory(db: Executor, shipmentId: string) {
  return db
    .selectFrom("inbound_status_history")
    .select(["from_status", "to_status", "actor", "created_at"])
    .where("shipment_id", "=", shipmentId)
    .orderBy("id")
    .execute();
}

export async function insertProblems(
  db: Executor,
  rows: Omit<ProblemRow, "resolved" | "resolved_at">[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto("inbound_problems").values(rows).execute();
}

export async function resolveProblems(db: Executor, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("inbound_problems").set({ resolved: true, resolved_at: at }).where("id", "in", ids).execute();
}

export interface ListFilter {
  merchantId: string;
  statuses?: Status[];
  merchantsRef?: string;
  updatedSince?: Date;
  after?: Position;
  limit: number;
}

export async function listShipments(db: Executor, f: ListFilter) {
  let q = db
    .selectFrom("inbound_shipments as s")
    .selectAll("s")
    .select(detailColumns)
    .where("merchant_id", "=", f.merchantId);
  if (f.statuses?.length) q = q.where("status", "in", f.statuses);
  if (f.merchantsRef !== undefined) q = q.where("merchants_ref", "=", f.merchantsRef);
  if (f.updatedSince) q = q.where("updated_at", ">=", f.updatedSince);
  if (f.after) {
    const { at, id } = f.after;
    q = q.where(sql<boolean>`(updated_at, id) > (${at}, ${id})`);
  }
  const rows = await q.orderBy("updated_at").orderBy("id").limit(f.limit).execute();
  return rows.map((r) => splitRow(r as unknown as ShipmentRow & JsonDetails));
}
