import { sql, type Kysely } from "kysely";

// Counters shared by every instance on one database: failed sign-ins, requests and body bytes per caller
// and window. The layout is rate-limiter-flexible's Postgres store (key, points, expiry in epoch ms).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table rate_limit_counters (key varchar(255) primary key, points integer not null default 0, expire bigint)`.execute(
    db,
  );
  await db.schema.createIndex("rate_limit_counters_expire").on("rate_limit_counters").column("expire").execute();
}
