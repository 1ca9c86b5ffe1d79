import type { Kysely } from "kysely";

// Near means near (issue 56): how far a pickup point may be from the customer and still be offered, per merchant.
// Expand only: a column with a default, which the release before neither reads nor writes (its inserts get 50,
// its settings replace leaves the value as it is).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("shipping_settings")
    .addColumn("pickup_max_distance_km", "integer", (c) => c.notNull().defaultTo(50))
    .execute();
}
