import { sql, type Kysely } from "kysely";

// Runs on PostgreSQL 15 and on PGlite (PostgreSQL 18): plain types only.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("merchants")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("operators")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("products")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
    .addColumn("merchants_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("gtin", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("products_merchant_sku", ["merchant_id", "merchants_id"])
    .execute();

  await db.schema
    .createTable("inbound_shipments")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
    .addColumn("merchants_ref", "text", (c) => c.notNull())
    .addColumn("sender_name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("expected_at_wh", "date")
    .addColumn("closing", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("inbound_shipments_merchant_updated")
    .on("inbound_shipments")
    .columns(["merchant_id", "updated_at", "id"])
    .execute();
  await db.schema
    .createIndex("inbound_shipments_merchant_ref")
    .on("inbound_shipments")
    .columns(["merchant_id", "merchants_ref"])
    .execute();

  await db.schema
    .createTable("inbound_lines")
    .addColumn("shipment_id", "char(24)", (c) => c.notNull().references("inbound_shipments.id"))
    .addColumn("product_id", "char(24)", (c) => c.notNull().references("products.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("qty", "integer", (c) => c.notNull())
    .addColumn("purchase_price_cents", "bigint")
    .addPrimaryKeyConstraint("inbound_lines_pk", ["shipment_id", "product_id"])
    .execute();

  await db.schema
    .createTable("inbound_arrivals")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("shipment_id", "char(24)", (c) => c.notNull().references("inbound_shipments.id"))
    .addColumn("product_id", "char(24)", (c) => c.notNull().references("products.id"))
    .addColumn("ts", "timestamptz", (c) => c.notNull())
    .addColumn("change", "integer", (c) => c.notNull())
    .addColumn("operator_id", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("inbound_arrivals_shipment")
    .on("inbound_arrivals")
    .columns(["shipment_id", "id"])
    .execute();

  await db.schema
    .createTable("inbound_status_history")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("shipment_id", "char(24)", (c) => c.notNull().references("inbound_shipments.id"))
    .addColumn("from_status", "text")
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("inbound_status_history_shipment")
    .on("inbound_status_history")
    .columns(["shipment_id", "id"])
    .execute();

  await db.schema
    .createTable("inbound_problems")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("shipment_id", "char(24)", (c) => c.notNull().references("inbound_shipments.id"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("merchants_id", "text")
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("resolved", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("resolved_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("inbound_problems_shipment")
    .on("inbound_problems")
    .columns(["shipment_id", "id"])
    .execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("principal", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("operation", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("response_status", "integer", (c) => c.notNull())
    // text, not jsonb: a replay must be the first response byte for byte, and jsonb reorders keys.
    .addColumn("response_body", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["principal", "key"])
    .execute();

  // Transactional outbox: written with the change that caused the event; delivered by the dispatcher.
  await db.schema
    .createTable("webhook_events")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("webhook_events_merchant")
    .on("webhook_events")
    .columns(["merchant_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "webhook_events",
    "idempotency_keys",
    "inbound_problems",
    "inbound_status_history",
    "inbound_arrivals",
    "inbound_lines",
    "inbound_shipments",
    "products",
    "operators",
    "merchants",
  ])
    await db.schema.dropTable(t).execute();
}
