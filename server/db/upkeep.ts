// The embedded database is PostgreSQL in single-user mode: no autovacuum runs there. Without it, a statement
// planned while the tables were small keeps that plan however large they grow (a server started on an empty
// directory read a shipment 2-3x slower after a few thousand creates, until it restarted), dead rows are never
// reclaimed and old rows are never frozen. The housekeeping (housekeeping.ts) does autovacuum's work instead.
// PostgreSQL servers have autovacuum: nothing here runs there.
import { CompiledQuery } from "kysely";
import type { Db } from "./database.ts";

/**
 * Tables of the service's schema at least twice as large as when their statistics were last taken (or never
 * taken, once they have a few pages). The cumulative statistics that autovacuum reads are not kept in
 * single-user mode, so the table's size against `relpages` is the signal.
 */
const GROWN_TABLES = CompiledQuery.raw(`
  select c.relname as name
  from pg_class c
  where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
    and pg_relation_size(c.oid) / current_setting('block_size')::int >= 2 * greatest(c.relpages, 2)
  order by c.relname`);

const TABLES = CompiledQuery.raw(`
  select relname as name from pg_class
  where relnamespace = current_schema()::regnamespace and relkind = 'r'
  order by relname`);

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * ANALYZE of every table that grew since its statistics: the new statistics also make PostgreSQL plan the
 * prepared statements on it again. Returns the tables analysed.
 */
export async function analyzeGrownTables(db: Db): Promise<string[]> {
  const { rows } = await db.executeQuery<{ name: string }>(GROWN_TABLES);
  for (const { name } of rows) await db.executeQuery(CompiledQuery.raw(`analyze ${quoted(name)}`));
  return rows.map((r) => r.name);
}

/**
 * VACUUM of each table: dead rows become free space, old rows are frozen before the transaction counter
 * wraps. One table at a time, so that requests get the one session between tables; pages untouched since the
 * last VACUUM are skipped, so it is quick after the first. Returns how many tables.
 */
export async function vacuumTables(db: Db): Promise<number> {
  const { rows } = await db.executeQuery<{ name: string }>(TABLES);
  for (const { name } of rows) await db.executeQuery(CompiledQuery.raw(`vacuum ${quoted(name)}`));
  return rows.length;
}
