import type { Kysely } from "kysely";

// Delivery dates (issue 51): the merchant's time zone and the delivery times of each method (and pickup branch) on
// the shipping settings. Null: no estimate is given, as before. Expand only: nullable columns the release before
// neither reads nor writes (its settings replace leaves them as they are).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("shipping_settings")
    .addColumn("time_zone", "varchar(64)")
    .addColumn("delivery_times", "jsonb")
    .execute();
}
