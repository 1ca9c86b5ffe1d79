import type { Kysely } from "kysely";

// What a person needs to act on a failed delivery: the first bytes of the answer and a failure class; and
// why an endpoint was disabled by the service (a 410 Gone answer). Runs on PostgreSQL 15 and PGlite.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("webhook_deliveries").addColumn("last_response_excerpt", "text").execute();
  await db.schema.alterTable("webhook_deliveries").addColumn("last_failure_class", "text").execute();
  await db.schema.alterTable("webhook_endpoints").addColumn("disabled_reason", "text").execute();
}
