import { sql, type Kysely } from "kysely";

// People who sign in to the merchant portal, and their sessions. A session is stored by a digest of its
// token, so a copy of the table does not sign anyone in.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("portal_users")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id").onDelete("cascade"))
    .addColumn("email", "varchar(254)", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "varchar(10)", (c) => c.notNull().check(sql`role in ('admin', 'staff')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("portal_users_merchant").on("portal_users").columns(["merchant_id", "id"]).execute();
  await db.schema
    .createTable("portal_sessions")
    .addColumn("token_hash", "char(64)", (c) => c.primaryKey())
    .addColumn("user_id", "char(24)", (c) => c.notNull().references("portal_users.id").onDelete("cascade"))
    .addColumn("csrf_token", "varchar(64)", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("portal_sessions_expires").on("portal_sessions").column("expires_at").execute();
  await db.schema.createIndex("portal_sessions_user").on("portal_sessions").column("user_id").execute();
}
