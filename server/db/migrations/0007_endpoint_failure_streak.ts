import { type Kysely } from "kysely";

// When every attempt to an endpoint has failed since some time: after a long enough streak (5 days by
// default, as Svix does) the service disables the endpoint instead of retrying into the void.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("webhook_endpoints").addColumn("failing_since", "timestamptz").execute();
}
