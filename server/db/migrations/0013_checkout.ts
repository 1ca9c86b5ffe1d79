import { sql, type Kysely } from "kysely";

// The checkout picker: merchants' publishable keys (public by design, so stored as they are), the service's
// quote signing keys, and the quote an order was placed with. Expand only: the release before reads none of it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("publishable_keys")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id").onDelete("cascade"))
    .addColumn("token", "varchar(40)", (c) => c.notNull().unique())
    .addColumn("name", "varchar(100)", (c) => c.notNull().defaultTo(""))
    .addColumn("origins", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("publishable_keys_merchant")
    .on("publishable_keys")
    .columns(["merchant_id", "created_at"])
    .execute();
  await db.schema
    .createTable("quote_signing_keys")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("private_key", "text", (c) => c.notNull())
    .addColumn("public_x", "varchar(64)", (c) => c.notNull())
    .addColumn("active_from", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.alterTable("orders").addColumn("shipping_quote", "jsonb").execute();
}
