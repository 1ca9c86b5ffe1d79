import { sql, type Kysely } from "kysely";

// Webhook endpoints and the deliveries of outbox events to them. Runs on PostgreSQL 15 and PGlite.
export async function up(db: Kysely<any>): Promise<void> {
  // json, not jsonb: the payload text is sent as stored, in the key order it was written.
  await sql`alter table webhook_events alter column payload type json using payload::json`.execute(db);

  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("event_types", sql`text[]`, (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("batching", "boolean", (c) => c.notNull().defaultTo(false))
    // Kept as is: the dispatcher signs with it. The previous one signs too until it expires (rotation).
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_secret_expires_at", "timestamptz")
    .addColumn("basic_username", "text")
    .addColumn("basic_password", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("webhook_endpoints_merchant")
    .on("webhook_endpoints")
    .columns(["merchant_id", "created_at", "id"])
    .execute();

  // One row per event and endpoint. `due_at` is when a dispatcher may take it: the next attempt while
  // pending, the end of the lease while in flight (a crashed sender's delivery is taken again then).
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("event_id", "char(24)", (c) => c.notNull().references("webhook_events.id").onDelete("cascade"))
    .addColumn("endpoint_id", "char(24)", (c) => c.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("merchant_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'in_flight', 'succeeded', 'failed')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    // Attempts of earlier deliveries of the same event to the same endpoint (re-deliveries go on counting).
    .addColumn("retry_base", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("due_at", "timestamptz")
    .addColumn("batch_id", "char(24)")
    .addColumn("last_attempt_at", "timestamptz")
    .addColumn("last_response_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("last_duration_ms", "integer")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("webhook_deliveries_due", sql`(status in ('pending', 'in_flight')) = (due_at is not null)`)
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .column("due_at")
    .where(sql.ref("due_at"), "is not", null)
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_endpoint_due")
    .on("webhook_deliveries")
    .columns(["endpoint_id", "due_at"])
    .where(sql.ref("due_at"), "is not", null)
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_endpoint")
    .on("webhook_deliveries")
    .columns(["endpoint_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_event")
    .on("webhook_deliveries")
    .columns(["event_id", "endpoint_id"])
    .execute();

  // A commit that queued deliveries wakes the dispatchers (LISTEN webhook_deliveries) at once; a rolled
  // back one does not. Once per statement, and PostgreSQL folds equal notifications of one transaction.
  await sql`
    create function webhook_deliveries_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('webhook_deliveries', '');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger webhook_deliveries_notify after insert on webhook_deliveries
    for each statement execute function webhook_deliveries_notify()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").execute();
  await sql`drop function webhook_deliveries_notify()`.execute(db);
  await db.schema.dropTable("webhook_endpoints").execute();
  await sql`alter table webhook_events alter column payload type jsonb using payload::jsonb`.execute(db);
}
