import { sql, type Kysely } from "kysely";

// The events feed pages by a position per merchant, given to events once they have committed (in commit order),
// instead of by transaction id: an open transaction anywhere in the cluster held back every merchant's feed.
// Expand only: txid stays for the release before this one, which still pages by it; a later release drops it.
// Existing events get positions in the order the old feed showed them, so old cursors map onto the new ones.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webhook_events add column feed_position bigint`.execute(db);
  await sql`
    update webhook_events e set feed_position = s.n
    from (select id, row_number() over (partition by merchant_id order by txid, id) as n from webhook_events) s
    where s.id = e.id`.execute(db);
  await sql`create unique index webhook_events_feed_position on webhook_events (merchant_id, feed_position)`.execute(
    db,
  );
  // The sequencer's work list: committed events still without a position, found without a scan.
  await sql`create index webhook_events_unsequenced on webhook_events (merchant_id) where feed_position is null`.execute(
    db,
  );
  // Each merchant's last position given, kept apart from the events so that pruning old events never lets
  // positions start again below a cursor a merchant holds; its row lock is the sequencer's lock.
  await db.schema
    .createTable("webhook_feed_positions")
    .addColumn("merchant_id", "text", (c) => c.primaryKey().references("merchants.id"))
    .addColumn("last_position", "bigint", (c) => c.notNull())
    .execute();
  await sql`
    insert into webhook_feed_positions (merchant_id, last_position)
    select merchant_id, max(feed_position) from webhook_events group by merchant_id`.execute(db);
}
