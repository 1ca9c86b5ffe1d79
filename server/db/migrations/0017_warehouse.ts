import { sql, type Kysely } from "kysely";

// The warehouse's side (issue 49):
// - warehouse_users and station_sessions: the warehouse's staff and their sessions at receiving stations, beside
//   the merchants' portal users (0008), a session stored by a digest of its token.
// - inbound_arrivals.recorded_by: who recorded an arrival ({type, id, name}, as the wire says it), kept as it was
//   then (a user renamed or removed later does not rewrite history). Null on rows of the release before, which
//   recorded only W-... operators (operator_id): read as that operator.
// - inbound_shipments_expected: the warehouse's list across merchants, expected date first (no date last), read in
//   index order; inbound_shipments_ref: the lookup of a scanned reference across merchants.
// Expand only: new tables, a nullable column and indexes, which the release before neither reads nor minds.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("warehouse_users")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("email", "varchar(254)", (c) => c.notNull().unique())
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "varchar(10)", (c) => c.notNull().check(sql`role in ('receiver', 'supervisor')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("must_change_password", "boolean", (c) => c.notNull().defaultTo(sql`false`))
    .execute();
  await db.schema
    .createTable("station_sessions")
    .addColumn("token_hash", "char(64)", (c) => c.primaryKey())
    .addColumn("user_id", "char(24)", (c) => c.notNull().references("warehouse_users.id").onDelete("cascade"))
    .addColumn("csrf_token", "varchar(64)", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("station_sessions_expires").on("station_sessions").column("expires_at").execute();
  await db.schema.createIndex("station_sessions_user").on("station_sessions").column("user_id").execute();
  await db.schema.alterTable("inbound_arrivals").addColumn("recorded_by", "jsonb").execute();
  await sql`create index inbound_shipments_expected on inbound_shipments ((coalesce(expected_at_wh, date '9999-12-31')), id)`.execute(
    db,
  );
  await db.schema.createIndex("inbound_shipments_ref").on("inbound_shipments").column("merchants_ref").execute();
}
