// The events feed's queries: positions given to committed events, and the pages read by position.
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { inTransaction, type Executor } from "../db/transaction.ts";
import type { EventType } from "./tables.ts";

export interface FeedRow {
  id: string;
  event_type: EventType;
  created_at: Date;
  feed_position: string;
  payload_json: string;
}

/**
 * Gives the merchant's committed events without a position the next positions, oldest first. One sequencer per
 * merchant at a time (the lock on its webhook_feed_positions row): a batch commits before the next one reads the
 * last position, so positions become visible in increasing order and a cursor never passes an event. Cheap when
 * there is nothing to do: one index probe, no lock.
 */
export async function sequenceFeed(db: Db, merchantId: string): Promise<void> {
  const waiting = await db
    .selectFrom("webhook_events")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("feed_position", "is", null)
    .limit(1)
    .executeTakeFirst();
  if (!waiting) return;
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("webhook_feed_positions")
      .values({ merchant_id: merchantId, last_position: "0" })
      .onConflict((oc) => oc.column("merchant_id").doNothing())
      .execute();
    const { last_position: base } = await trx
      .selectFrom("webhook_feed_positions")
      .select("last_position")
      .where("merchant_id", "=", merchantId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    // A new statement after the lock: its snapshot sees the positions the previous holder committed.
    await sql`
      with waiting as (
        select id, row_number() over (order by created_at, id) as n
        from webhook_events where merchant_id = ${merchantId} and feed_position is null
      ), given as (
        update webhook_events e set feed_position = ${base}::bigint + w.n from waiting w where e.id = w.id returning 1
      )
      update webhook_feed_positions set last_position = ${base}::bigint + (select count(*) from given)
      where merchant_id = ${merchantId}`.execute(trx);
  });
}

/** The position of the last event a pre-0009 cursor (transaction id) had shown: every event of txid <= it. */
export async function feedPositionAtTxid(db: Executor, merchantId: string, txid: string): Promise<string> {
  const r = await db
    .selectFrom("webhook_events")
    .select(sql<string>`coalesce(max(feed_position), 0)::text`.as("p"))
    .where("merchant_id", "=", merchantId)
    .where(sql<boolean>`txid <= ${txid}::xid8`)
    .executeTakeFirstOrThrow();
  return r.p;
}

/** The merchant's sequenced events after position `after`, in feed order. */
export async function feedEvents(
  db: Executor,
  merchantId: string,
  types: readonly EventType[],
  after: string,
  limit: number,
): Promise<FeedRow[]> {
  return db
    .selectFrom("webhook_events")
    .select([
      "id",
      "event_type",
      "created_at",
      sql<string>`feed_position::text`.as("feed_position"),
      sql<string>`payload::text`.as("payload_json"),
    ])
    .where("merchant_id", "=", merchantId)
    .where("event_type", "in", types)
    .where(sql<boolean>`feed_position > ${after}::bigint`)
    .orderBy("feed_position")
    .limit(limit)
    .execute();
}

/** The id of the merchant's event at `position`, if it is kept. */
export async function eventAtPosition(db: Executor, merchantId: string, position: string): Promise<string | undefined> {
  const r = await db
    .selectFrom("webhook_events")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where(sql<boolean>`feed_position = ${position}::bigint`)
    .executeTakeFirst();
  return r?.id;
}

/** The last position handed out to the merchant's events ("0" before the first). */
export async function lastFeedPosition(db: Executor, merchantId: string): Promise<string> {
  const r = await db
    .selectFrom("webhook_feed_positions")
    .select(sql<string>`last_position::text`.as("p"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return r?.p ?? "0";
}

/** Whether the merchant has a kept event before `position` (retention removes the oldest first). */
export async function hasEventBefore(db: Executor, merchantId: string, position: string): Promise<boolean> {
  const r = await db
    .selectFrom("webhook_events")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where(sql<boolean>`feed_position < ${position}::bigint`)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * The merchant's newest event before `position` such that no event at or before it was created after the second
 * `createdBySecond` (an id's time prefix): the newest point of this history every event up to which existed
 * before then.
 */
export async function lastEventCreatedBy(
  db: Executor,
  merchantId: string,
  position: string,
  createdBySecond: string,
): Promise<{ id: string; position: string } | undefined> {
  // Ids begin with their creation second in 8 hex digits: every id greater than this one was created later.
  const newestThen = `${createdBySecond}${"f".repeat(16)}`;
  const r = await db
    .selectFrom("webhook_events")
    .select(["id", sql<string>`feed_position::text`.as("position")])
    .where("merchant_id", "=", merchantId)
    .where(
      sql<boolean>`feed_position < least(${position}::bigint, coalesce((
        select min(feed_position) from webhook_events
        where merchant_id = ${merchantId} and feed_position is not null and id > ${newestThen}
      ), ${position}::bigint))`,
    )
    .orderBy("feed_position", "desc")
    .limit(1)
    .executeTakeFirst();
  return r;
}
