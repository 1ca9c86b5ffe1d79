import { sql, type Kysely } from "kysely";

// The events feed (GET /events) pages by the id of the transaction that recorded each event: an event
// is shown only once every transaction that could still commit an earlier one has finished, so a
// cursor never passes an event that commits late. Existing rows get this migration's transaction id.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webhook_events add column txid xid8 not null default pg_current_xact_id()`.execute(db);
  await db.schema
    .createIndex("webhook_events_feed")
    .on("webhook_events")
    .columns(["merchant_id", "txid", "id"])
    .execute();
}
