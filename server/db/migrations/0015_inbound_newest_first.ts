import { sql, type Kysely } from "kysely";

// The inbound shipments list of people (issue 28): newest first, and a search of merchants_ref and sender_name.
// - inbound_shipments_merchant_created reads a merchant's shipments by creation time, walked backwards for
//   `sort=-created_at`, as inbound_shipments_merchant_updated serves the default order.
// - Trigram indexes (pg_trgm, from PostgreSQL's contrib; trusted, so the database owner may create it) find the
//   few shipments a rare `q` matches (`ILIKE '%text%'`) without reading every row; a common `q` walks the order's
//   index instead and stops at the page's end.
// - Where pg_trgm is not available or not ours to install (the embedded PGlite, which loads only the extensions it needs), there are no
//   trigram indexes: a search reads the merchant's rows, fine at the embedded database's size, and a data directory
//   stays one that the release before can open and write (an index it cannot maintain would stop its inserts).
// Expand only: the release before neither needs nor minds them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("inbound_shipments_merchant_created")
    .ifNotExists()
    .on("inbound_shipments")
    .columns(["merchant_id", "created_at", "id"])
    .execute();
  // Available, and installed already or ours to install (a trusted extension needs CREATE on the database; a
  // failed CREATE EXTENSION would abort the migration's transaction, so it is asked, not tried).
  const trgm = await sql<{ usable: boolean }>`
    select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
       and (exists (select 1 from pg_extension where extname = 'pg_trgm')
            or has_database_privilege(current_database(), 'CREATE')) as usable`.execute(db);
  if (!trgm.rows[0]?.usable) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index if not exists inbound_shipments_ref_trgm on inbound_shipments using gin (merchants_ref gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index if not exists inbound_shipments_sender_trgm on inbound_shipments using gin (sender_name gin_trgm_ops)`.execute(
    db,
  );
}
