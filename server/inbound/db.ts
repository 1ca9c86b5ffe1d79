// Every SQL statement of inbound shipments: the aggregate's locked load and its save for the writes, and
// the reads. A merchant's read filters by its merchant id, so tenant isolation is enforced in SQL, not
// only in the rules above it.
import { sql, type Compilable, type ExpressionBuilder, type QueryCreator, type Selectable } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { Principal } from "../accounts/domain.ts";
import { catalogueCtes, catalogueValues, mergeCatalogueValues, type CatalogueLine } from "../catalogue/db.ts";
import type { Database } from "../db/schema.ts";
import type { RecordedBy } from "./tables.ts";
import { precompiled } from "../db/precompiled.ts";
import { rawAs } from "../db/statement-ways.ts";
import { mergeable } from "../db/write-merges.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import { notFound } from "../shared/errors.ts";
import type { QueryOf } from "../shared/contract.ts";
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
  operator_id: string;
  recorded_by: RecordedBy | null;
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

export interface Details {
  lines: LineRow[];
  arrivals: ArrivalRow[];
  problems: ProblemRow[];
}

/** One shipment with its lines, arrivals and problems: the aggregate that every inbound write changes. */
export type Shipment = { row: ShipmentRow } & Details;

/** A merchant sees only its own shipments; an operator sees every merchant's. */
function scopeOf(actor: Principal): string | undefined {
  return actor.role === "merchant" ? actor.id : undefined;
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
      .select(["a.shipment_id", "a.product_id", "a.ts", "a.change", "a.operator_id", "a.recorded_by"])
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

/** A merchant's shipment with its details: GET shipment's one statement (the benchmark's floor sends it too). */
export const shipmentOfMerchant = (db: Executor, id: string, merchantId: string) =>
  db
    .selectFrom("inbound_shipments as s")
    .selectAll("s")
    .select(detailColumns)
    .where("s.id", "=", id)
    .where("s.merchant_id", "=", merchantId);
const detailedForMerchant = precompiled<ShipmentRow & JsonDetails, [string, string]>(shipmentOfMerchant, 2);
const detailedAny = precompiled<ShipmentRow & JsonDetails, [string]>(
  (db, id) => db.selectFrom("inbound_shipments as s").selectAll("s").select(detailColumns).where("s.id", "=", id),
  1,
);

/** One shipment with its details in one query; undefined when absent or another merchant's. */
export async function findShipment(db: Executor, actor: Principal, id: string): Promise<Shipment | undefined> {
  const merchantId = scopeOf(actor);
  const [r] = merchantId === undefined ? await detailedAny(db, id) : await detailedForMerchant(db, id, merchantId);
  return r && splitRow(r);
}

const detailsOf = precompiled<JsonDetails & { id: string }, [string]>(
  (db, id) => db.selectFrom("inbound_shipments as s").select("s.id").select(detailColumns).where("s.id", "=", id),
  1,
);

/**
 * Takes the row lock that serializes writers of one shipment, for the rest of the transaction, then reads
 * its details. Two statements on purpose: under READ COMMITTED a statement that waited for the lock
 * still reads other tables as of its start, so only a read after the lock sees the previous writer's arrivals.
 */
async function loadShipmentForUpdate(trx: Tx, actor: Principal, id: string): Promise<Shipment> {
  const merchantId = scopeOf(actor);
  const [row] = merchantId === undefined ? await lockAny(trx, id) : await lockForMerchant(trx, id, merchantId);
  if (!row) throw notFound("Inbound shipment");
  const [r] = await detailsOf(trx, id);
  if (!r) throw new Error(`shipment ${id} vanished inside its own transaction`);
  return { row, ...parseDetails(r) };
}

export type NewArrival = Omit<ArrivalRow, "shipment_id" | "recorded_by"> & { recorded_by: RecordedBy };
export type NewProblem = Omit<ProblemRow, "resolved" | "resolved_at">;

/** The rows one change of a stored shipment writes (a new one is insertNewShipment's). */
export interface ShipmentWrites {
  row: Partial<Pick<ShipmentRow, "merchants_ref" | "sender_name" | "status" | "expected_at_wh" | "closing">> & {
    updated_at: Date;
  };
  upsertedLines: LineRow[];
  removedLines: string[];
  arrivals: NewArrival[];
  problems: NewProblem[];
  resolvedProblems: string[];
  history: { from_status: Status | null; to_status: Status; actor: string }[];
}

/**
 * The one way to change a stored shipment: lock and load it once, let `change` decide in memory (it may throw to
 * refuse), and save what it decided in one statement. The caller raises the change's events afterwards.
 */
export async function updateShipment<C extends { s: Shipment; writes: ShipmentWrites }>(
  trx: Tx,
  actor: Principal,
  id: string,
  change: (s: Shipment) => C | Promise<C>,
): Promise<C> {
  const c = await change(await loadShipmentForUpdate(trx, actor, id));
  await saveShipment(trx, c.s, c.writes);
  return c;
}

/**
 * Writes what a change of `s` recorded in one statement: lines, arrivals, problems and history ride as
 * data-modifying CTEs on the shipment's update, so a change costs one round trip under the lock. The parts do not
 * see each other's rows, so a change never resolves a problem it adds in the same save.
 */
async function saveShipment(trx: Tx, s: Shipment, w: ShipmentWrites): Promise<void> {
  const id = s.row.id;
  const at = w.row.updated_at;
  const parts: [string, Compilable<unknown>][] = [];
  if (w.removedLines.length)
    parts.push([
      "removed_lines",
      trx.deleteFrom("inbound_lines").where("shipment_id", "=", id).where("product_id", "in", w.removedLines),
    ]);
  if (w.upsertedLines.length)
    parts.push([
      "lines",
      trx
        .insertInto("inbound_lines")
        .values(w.upsertedLines.map((l) => ({ shipment_id: id, ...pickLineColumns(l) })))
        .onConflict((oc) =>
          oc.columns(["shipment_id", "product_id"]).doUpdateSet((eb) => ({
            position: eb.ref("excluded.position"),
            qty: eb.ref("excluded.qty"),
            purchase_price_cents: eb.ref("excluded.purchase_price_cents"),
          })),
        ),
    ]);
  if (w.arrivals.length)
    parts.push([
      "arrivals",
      trx.insertInto("inbound_arrivals").values(w.arrivals.map((a) => ({ shipment_id: id, ...a }))),
    ]);
  if (w.problems.length) parts.push(["problems", trx.insertInto("inbound_problems").values(w.problems)]);
  if (w.resolvedProblems.length)
    parts.push([
      "resolved",
      trx
        .updateTable("inbound_problems")
        .set({ resolved: true, resolved_at: at })
        .where("id", "in", w.resolvedProblems),
    ]);
  if (w.history.length)
    parts.push([
      "history",
      trx
        .insertInto("inbound_status_history")
        .values(w.history.map((h) => ({ shipment_id: id, ...h, created_at: at }))),
    ]);
  // The CTEs' names are only labels: nothing reads them, so the builder's table types need not know them.
  const creator = parts.reduce<QueryCreator<Database>>(
    (qc, [name, query]) => qc.with(name, () => query as never) as unknown as QueryCreator<Database>,
    trx,
  );
  await creator.updateTable("inbound_shipments").set(w.row).where("id", "=", id).execute();
}

/** A line of a new shipment, by the merchant's product code: the statement finds or adds the product. */
export type NewLine = CatalogueLine & { position: number; qty: number; purchase_price_cents: number | null };

/**
 * A new shipment in one statement: its products (the catalogue's upsert, catalogueCtes), its lines and its first
 * history entry. False when one of its products was missing from the catalogue (added by another request
 * meanwhile): then nothing of the shipment was written, and the caller runs it again (its next snapshot sees that
 * product). Creates that wait for a write batch together are written by one statement (write-merges.ts).
 */
export async function insertNewShipment(
  db: Executor,
  r: ShipmentRow,
  lines: NewLine[],
  history: { actor: string },
): Promise<boolean> {
  const { numAffectedRows } = await db.executeQuery(
    rawAs("write", CREATE_SHIPMENTS, [
      ...catalogueValues(r.merchant_id, lines, r.created_at),
      lines.map(() => 1),
      lines.map((l) => l.merchants_id),
      lines.map((l) => l.position),
      lines.map((l) => l.qty),
      lines.map((l) => l.purchase_price_cents),
      [r.id],
      [r.merchant_id],
      [r.merchants_ref],
      [r.sender_name],
      [r.status],
      [r.expected_at_wh],
      [r.closing],
      [r.created_at],
      [r.updated_at],
      [history.actor],
    ]),
  );
  return numAffectedRows === 1n;
}

/** The catalogue's 6 parameters, then the lines' 5 (the first: which shipment, from 1), then the shipments' 10. */
const CATALOGUE_PARAMETERS = 6;
const LINE_SHIPMENT = CATALOGUE_PARAMETERS;
const SHIPMENT_IDS = CATALOGUE_PARAMETERS + 5;

// A line names its shipment by its place in the shipments' arrays (not by its id and merchant: the statement's
// values are half as long). A shipment is written only when each of its lines found its product ("complete"): each
// create's own lines decide, so a create merged with others is not held back by another's late product.
const CREATE_SHIPMENTS = mergeable(
  `with ${catalogueCtes(1)}, "given" as (
  select * from unnest($12::char(24)[], $13::text[], $14::text[], $15::text[], $16::text[], $17::date[], $18::boolean[],
    $19::timestamptz[], $20::timestamptz[], $21::text[]) with ordinality
    as s("id", "merchant_id", "merchants_ref", "sender_name", "status", "expected_at_wh", "closing", "created_at", "updated_at", "actor", "n")
), "given_lines" as (
  select g."id" as "shipment_id", c."id" as "product_id", l."position", l."qty", l."price"
  from unnest($7::integer[], $8::text[], $9::integer[], $10::integer[], $11::bigint[]) as l("n", "merchants_id", "position", "qty", "price")
  join "given" g on g."n" = l."n"
  left join "catalogue" c on c."merchant_id" = g."merchant_id" and c."merchants_id" = l."merchants_id"
), "complete" as (
  select g.* from "given" g
  where not exists (select from "given_lines" l where l."shipment_id" = g."id" and l."product_id" is null)
), "lines" as (
  insert into "inbound_lines" ("shipment_id", "product_id", "position", "qty", "purchase_price_cents")
  select l."shipment_id", l."product_id", l."position", l."qty", l."price"
  from "given_lines" l join "complete" c on c."id" = l."shipment_id"
), "history" as (
  insert into "inbound_status_history" ("shipment_id", "from_status", "to_status", "actor", "created_at")
  select "id", null, "status", "actor", "created_at" from "complete"
)
insert into "inbound_shipments" ("id", "merchant_id", "merchants_ref", "sender_name", "status", "expected_at_wh", "closing", "created_at", "updated_at")
select "id", "merchant_id", "merchants_ref", "sender_name", "status", "expected_at_wh", "closing", "created_at", "updated_at" from "complete"
returning "id"`,
  {
    merge: (each) => [
      ...mergeCatalogueValues(each.map((v) => v.slice(0, CATALOGUE_PARAMETERS) as unknown[][])),
      each.flatMap((v, k) => (v[LINE_SHIPMENT] as unknown[]).map(() => k + 1)),
      ...each[0]!.slice(LINE_SHIPMENT + 1).map((_, i) => each.flatMap((v) => v[LINE_SHIPMENT + 1 + i] as unknown[])),
    ],
    split: (answer, each) => {
      const written = new Set((answer.rows as { id: string }[]).map((r) => r.id));
      return each.map((v) => {
        const id = (v[SHIPMENT_IDS] as string[])[0]!;
        const rows = written.has(id) ? [{ id }] : [];
        return { command: answer.command, rowCount: rows.length, rows };
      });
    },
  },
);

const pickLineColumns = (l: LineRow) => ({
  product_id: l.product_id,
  position: l.position,
  qty: l.qty,
  purchase_price_cents: l.purchase_price_cents,
});

/** A shipment's status changes, oldest first (the index on shipment_id, id keeps the order). */
export async function listStatusHistory(db: Executor, shipmentId: string) {
  return db
    .selectFrom("inbound_status_history")
    .select(["from_status", "to_status", "actor", "created_at"])
    .where("shipment_id", "=", shipmentId)
    .orderBy("id")
    .execute();
}

/** The orders of the list (the spec's `sort`): oldest change first, or newest announcement first. */
export type ListOrder = NonNullable<QueryOf<"listInboundShipments">["sort"]>;

export interface ListFilter {
  merchantId: string;
  order: ListOrder;
  statuses?: Status[];
  merchantsRef?: string;
  /** Text that `merchants_ref` or `sender_name` contains, ignoring case; every character means itself. */
  search?: string;
  updatedSince?: Date;
  /** The last row of the previous page, in `order`. */
  after?: Position;
  limit: number;
}

/** `text` as a LIKE pattern that matches it anywhere, each character literally (`\` is LIKE's escape). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * One page of a merchant's shipments. Each order walks an index that starts with merchant_id
 * (inbound_shipments_merchant_updated, inbound_shipments_merchant_created), so the other filters only narrow
 * the merchant's own rows, read in order until the page is full; a search that matches few rows is found through
 * the trigram indexes of merchants_ref and sender_name instead (migration 0015).
 */
export async function listShipments(db: Executor, f: ListFilter): Promise<Shipment[]> {
  let q = db
    .selectFrom("inbound_shipments as s")
    .selectAll("s")
    .select(detailColumns)
    .where("merchant_id", "=", f.merchantId);
  if (f.statuses?.length) q = q.where("status", "in", f.statuses);
  if (f.merchantsRef !== undefined) q = q.where("merchants_ref", "=", f.merchantsRef);
  if (f.search !== undefined) {
    const pattern = containsPattern(f.search);
    // Backslash is LIKE's escape by default; an explicit ESCAPE clause would hide the pattern from the trigram index.
    q = q.where((eb) => eb.or([eb("merchants_ref", "ilike", pattern), eb("sender_name", "ilike", pattern)]));
  }
  if (f.updatedSince) q = q.where("updated_at", ">=", f.updatedSince);
  if (f.order === "updated_at") {
    if (f.after) q = q.where(sql<boolean>`(updated_at, id) > (${f.after.at}, ${f.after.id})`);
    q = q.orderBy("updated_at").orderBy("id");
  } else {
    if (f.after) q = q.where(sql<boolean>`(created_at, id) < (${f.after.at}, ${f.after.id})`);
    q = q.orderBy("created_at", "desc").orderBy("id", "desc");
  }
  const rows = await q.limit(f.limit).execute();
  return rows.map((r) => splitRow(r as unknown as ShipmentRow & JsonDetails));
}

/** The warehouse's order: expected date first, a shipment without one last (the expression inbound_shipments_expected indexes). */
const EXPECTED_ORDER = sql<string>`coalesce(expected_at_wh, date '9999-12-31')`;
/** The date a shipment without an expected date sorts under. */
export const NO_EXPECTED_DATE = "9999-12-31";

export interface WarehouseListFilter {
  expectedFrom?: string;
  expectedTo?: string;
  statuses?: Status[];
  merchantId?: string;
  /** Text that `merchants_ref` or `sender_name` contains, ignoring case; every character means itself. */
  search?: string;
  /** The last row of the previous page: its expected date (NO_EXPECTED_DATE for none) and id. */
  after?: { date: string; id: string };
  limit: number;
}

/**
 * One page of every merchant's shipments for the warehouse, read in the order of inbound_shipments_expected
 * (expected date, id): a date range is a range of that index; the other filters narrow what it reads.
 */
export async function listForWarehouse(db: Executor, f: WarehouseListFilter): Promise<Shipment[]> {
  let q = db.selectFrom("inbound_shipments as s").selectAll("s").select(detailColumns);
  if (f.expectedFrom !== undefined) q = q.where(sql<boolean>`${EXPECTED_ORDER} >= ${f.expectedFrom}::date`);
  if (f.expectedTo !== undefined) q = q.where(sql<boolean>`${EXPECTED_ORDER} <= ${f.expectedTo}::date`);
  if (f.statuses?.length) q = q.where("status", "in", f.statuses);
  if (f.merchantId !== undefined) q = q.where("merchant_id", "=", f.merchantId);
  if (f.search !== undefined) {
    const pattern = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb("merchants_ref", "ilike", pattern), eb("sender_name", "ilike", pattern)]));
  }
  if (f.after) q = q.where(sql<boolean>`(${EXPECTED_ORDER}, id) > (${f.after.date}::date, ${f.after.id})`);
  const rows = await q.orderBy(EXPECTED_ORDER).orderBy("id").limit(f.limit).execute();
  return rows.map((r) => splitRow(r as unknown as ShipmentRow & JsonDetails));
}

/** The shipments of any merchant with this exact reference in one of `statuses`, in the warehouse's order. */
export async function findByReference(
  db: Executor,
  merchantsRef: string,
  statuses: readonly Status[],
  limit: number,
): Promise<ShipmentRow[]> {
  return db
    .selectFrom("inbound_shipments")
    .selectAll()
    .where("merchants_ref", "=", merchantsRef)
    .where("status", "in", statuses)
    .orderBy(EXPECTED_ORDER)
    .orderBy("id")
    .limit(limit)
    .execute();
}
