import { type Kysely } from "kysely";

// Until when a receiver asked not to be called again (its Retry-After on a 429 or 503), so that re-delivering a
// pending delivery now can respect it. Expand only: the release before this one never reads or writes it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("webhook_deliveries").addColumn("receiver_not_before", "timestamptz").execute();
}
