import { sql, type Kysely } from "kysely";

// Shopify's carrier service (issue 51 item 2): a merchant's callback tokens, the secret part of the URL Shopify
// calls for rates. The token is kept as its SHA-256 only (190 random bits: a fast hash is enough, and a lookup by
// it stays one index probe); the Shopify app's client secret, which the service must read back to check
// signatures, is kept sealed under the main key (server/secrets/). Expand only: a new table.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("carrier_service_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id").onDelete("cascade"))
    .addColumn("token_sha256", "text", (c) => c.notNull().unique())
    .addColumn("token_hint", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("pickup_rates", "integer", (c) => c.notNull())
    .addColumn("tag_properties", "jsonb", (c) => c.notNull())
    .addColumn("app_secret_sealed", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("carrier_service_tokens_merchant")
    .on("carrier_service_tokens")
    .columns(["merchant_id", "created_at"])
    .execute();
}
