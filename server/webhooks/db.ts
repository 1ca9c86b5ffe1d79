// Queries of the endpoints API and the outbox's fan-out. Every read of merchant data filters by merchant.
// The dispatcher's own queries are in queue.ts, the events feed's in feed.db.ts.
import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import type { Position } from "../shared/pagination.ts";
import type { DeliveryState, EventType } from "./tables.ts";
import { reads } from "../db/statement-ways.ts";

type Endpoints = Database["webhook_endpoints"];
export type EndpointRow = Selectable<Endpoints>;
/** What list and get read: never the secrets or the Basic credentials themselves. */
export type EndpointView = Omit<
  EndpointRow,
  | "secret_sealed"
  | "previous_secret_sealed"
  | "previous_secret_expires_at"
  | "basic_username"
  | "basic_password_sealed"
  | "failing_since"
> & {
  has_basic_auth: boolean;
};
export type DeliveryRow = Selectable<Database["webhook_deliveries"]>;
/** A delivery as merchants see it: with its event's type and the inbound shipment the event is about, if any. */
export type DeliveryView = DeliveryRow & {
  event_type: EventType;
  shipment_id: string | null;
  shipment_ref: string | null;
};
/** One delivery with what its requests carry: the event's payload (its stored JSON text) and time. */
export type DeliveryDetailView = DeliveryView & { payload: string; event_at: Date };

const VIEW = [
  "id",
  "merchant_id",
  "url",
  "event_types",
  "description",
  "enabled",
  "batching",
  "disabled_reason",
  "created_at",
  "updated_at",
] as const;
const hasBasicAuth = sql<boolean>`basic_username is not null`.as("has_basic_auth");

export async function findEndpoint(
  db: Executor,
  merchantId: string,
  id: string,
  forUpdate = false,
): Promise<EndpointView | undefined> {
  let q = db
    .selectFrom("webhook_endpoints")
    .select(VIEW)
    .select(hasBasicAuth)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id);
  // Not FOR UPDATE: that would also wait for (and block) transactions queuing deliveries to the endpoint.
  if (forUpdate) q = q.forNoKeyUpdate();
  return q.executeTakeFirst();
}

export async function listEndpoints(
  db: Executor,
  merchantId: string,
  after: Position | undefined,
  limit: number,
): Promise<EndpointView[]> {
  let q = db.selectFrom("webhook_endpoints").select(VIEW).select(hasBasicAuth).where("merchant_id", "=", merchantId);
  if (after) q = q.where(sql<boolean>`(created_at, id) > (${after.at}, ${after.id})`);
  return q.orderBy("created_at").orderBy("id").limit(limit).execute();
}

/** Serializes endpoint creation per merchant, so that the endpoint limit holds under concurrency. */
export async function lockMerchantEndpoints(trx: Tx, merchantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('webhook_endpoints'), hashtext(${merchantId}))`.execute(trx);
}

export async function countEndpoints(db: Executor, merchantId: string): Promise<number> {
  const r = await db
    .selectFrom("webhook_endpoints")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertEndpoint(db: Executor, row: Insertable<Endpoints>): Promise<void> {
  await db.insertInto("webhook_endpoints").values(row).execute();
}

export async function updateEndpoint(
  db: Executor,
  id: string,
  changes: Partial<
    Pick<
      Insertable<Endpoints>,
      | "url"
      | "event_types"
      | "description"
      | "enabled"
      | "disabled_reason"
      | "failing_since"
      | "batching"
      | "secret_sealed"
      | "previous_secret_sealed"
      | "previous_secret_expires_at"
      | "basic_username"
      | "basic_password_sealed"
    >
  > & { updated_at: Date },
): Promise<void> {
  await db.updateTable("webhook_endpoints").set(changes).where("id", "=", id).execute();
}

export async function deleteEndpoint(db: Executor, merchantId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom("webhook_endpoints")
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/**
 * The current secret becomes the previous one (signing until `overlapUntil`); `sealed` (the new secret, sealed for
 * the row) becomes current. Sealed values are bound to the row, not the column: the copy opens as it did.
 */
export async function rotateSecret(
  db: Executor,
  id: string,
  sealed: string,
  overlapUntil: Date,
  now: Date,
): Promise<void> {
  await db
    .updateTable("webhook_endpoints")
    .set((eb) => ({
      previous_secret_sealed: eb.ref("secret_sealed"),
      previous_secret_expires_at: overlapUntil,
      secret_sealed: sealed,
      updated_at: now,
    }))
    .where("id", "=", id)
    .execute();
}

/** Queued deliveries of the endpoint leave the batch they were sent in (in-flight ones finish as they are). */
export async function forgetBatches(db: Executor, endpointId: string): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set({ batch_id: null })
    .where("endpoint_id", "=", endpointId)
    .where("status", "=", "pending")
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// Events and deliveries

export async function insertEvent(db: Executor, row: Insertable<Database["webhook_events"]>): Promise<void> {
  await db.insertInto("webhook_events").values(row).execute();
}

/** Test events queued to an endpoint within the last `seconds`, and when the oldest of them was. */
export async function recentTestEvents(
  db: Executor,
  endpointId: string,
  seconds: number,
): Promise<{ count: number; oldest: Date | null }> {
  const r = await sql<{ count: string; oldest: Date | null }>`
    select count(*) as count, min(d.created_at) as oldest
    from webhook_deliveries d join webhook_events ev on ev.id = d.event_id
    where d.endpoint_id = ${endpointId} and ev.event_type = 'webhook.test'
      and d.created_at > now() - make_interval(secs => ${seconds})`
    .withPlugin(reads)
    .execute(db);
  return { count: Number(r.rows[0]?.count ?? 0), oldest: r.rows[0]?.oldest ?? null };
}

/** The merchant's enabled endpoints subscribed to `type`. */
export async function subscribedEndpoints(db: Executor, merchantId: string, type: EventType): Promise<string[]> {
  const rows = await db
    .selectFrom("webhook_endpoints")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("enabled", "=", true)
    .where(sql<boolean>`${type} = any(event_types)`)
    .execute();
  return rows.map((r) => r.id);
}

export interface NewDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  merchant_id: string;
  retry_base?: number;
  /** Millisecond precision, like every timestamp a cursor points at. */
  created_at: Date;
}

/** Queues deliveries, due now by the database's clock (the one the dispatchers compare with). */
export async function insertDeliveries(db: Executor, rows: NewDelivery[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insertInto("webhook_deliveries")
    .values(rows.map((r) => ({ ...r, status: "pending" as const, due_at: sql<Date>`now()` })))
    .execute();
}

export async function findDelivery(db: Executor, merchantId: string, id: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** One delivery of the merchant with its event (the payload as stored text, sent exactly so). */
export async function findDeliveryDetail(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<DeliveryDetailView | undefined> {
  return db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_events as e", "e.id", "d.event_id")
    .selectAll("d")
    .select([
      "e.event_type",
      shipmentId,
      shipmentRef,
      sql<string>`e.payload::text`.as("payload"),
      "e.created_at as event_at",
    ])
    .where("d.merchant_id", "=", merchantId)
    .where("d.id", "=", id)
    .executeTakeFirst();
}

/** All attempts so far of one event to one endpoint, over every delivery of it. */
export async function attemptsSoFar(db: Executor, eventId: string, endpointId: string): Promise<number> {
  const r = await db
    .selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.max(sql<number>`retry_base + attempts`).as("n"))
    .where("event_id", "=", eventId)
    .where("endpoint_id", "=", endpointId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export interface DeliveryFilter {
  endpointId: string;
  statuses?: DeliveryState[];
  /** Newest first: rows before this position. */
  before?: Position;
  limit: number;
}

// The shipment an inbound shipment event is about: `shipment_id` and `merchants_ref` at the top of the payload
// (items arrived, status changed), or the shipment itself under `shipment` (arrived at the warehouse, processed).
const inbound = sql<boolean>`e.event_type like 'inbound_shipment.%'`;
const shipmentId = sql<
  string | null
>`case when ${inbound} then coalesce(e.payload->>'shipment_id', e.payload->'shipment'->>'id') end`.as("shipment_id");
const shipmentRef = sql<
  string | null
>`case when ${inbound} then coalesce(e.payload->>'merchants_ref', e.payload->'shipment'->>'merchants_ref') end`.as(
  "shipment_ref",
);

export async function listDeliveries(db: Executor, f: DeliveryFilter): Promise<DeliveryView[]> {
  let q = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_events as e", "e.id", "d.event_id")
    .selectAll("d")
    .select(["e.event_type", shipmentId, shipmentRef])
    .where("d.endpoint_id", "=", f.endpointId);
  if (f.statuses) q = q.where("d.status", "in", f.statuses);
  if (f.before) q = q.where(sql<boolean>`(d.created_at, d.id) < (${f.before.at}, ${f.before.id})`);
  return q.orderBy("d.created_at", "desc").orderBy("d.id", "desc").limit(f.limit).execute();
}

/**
 * Housekeeping: finished deliveries and events older than `days` (the spec says 30 by default), deleted
 * `batch` rows per statement, so that a large backlog never holds long locks or one huge transaction.
 */
export async function pruneOlderThan(db: Executor, days: number, batch = 1000): Promise<number> {
  const cutoff = sql<Date>`now() - make_interval(days => ${days})`;
  let deleted = 0;
  for (;;) {
    const d = await db
      .deleteFrom("webhook_deliveries")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("webhook_deliveries")
          .select("id")
          .where("status", "in", ["succeeded", "failed"])
          .where("created_at", "<", cutoff)
          .limit(batch),
      )
      .executeTakeFirst();
    deleted += Number(d.numDeletedRows);
    if (Number(d.numDeletedRows) < batch) break;
  }
  for (;;) {
    const e = await db
      .deleteFrom("webhook_events")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("webhook_events")
          .select("id")
          .where("created_at", "<", cutoff)
          .where((w) =>
            w.not(
              w.exists(
                w.selectFrom("webhook_deliveries as d").select("d.id").whereRef("d.event_id", "=", "webhook_events.id"),
              ),
            ),
          )
          .limit(batch),
      )
      .executeTakeFirst();
    if (Number(e.numDeletedRows) < batch) break;
  }
  return deleted;
}
