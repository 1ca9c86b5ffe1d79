// The embedded database is PostgreSQL in single-user mode: no autovacuum runs there. Without it, a statement
// planned while the tables were small keeps that plan however large they grow (a server started on an empty
// directory spent 2.5x as long on each shipment read after four rounds of creates, until it restarted), dead rows
// are never reclaimed and old rows are never frozen. The housekeeping (housekeeping.ts) does autovacuum's work
// instead. PostgreSQL servers have autovacuum: nothing here runs there.
import { CompiledQuery } from "kysely";
import type { Db } from "./database.ts";

/**
 * The tables of the service's schema, and whether each is at least twice as large as when its statistics were
 * last taken (or never taken, once it has a few pages). The cumulative statistics that autovacuum reads are not
 * kept in single-user mode, so the table's size against `relpages` is the signal.
 */
const TABLES = CompiledQuery.raw(`
  select relname as name,
    pg_relation_size(oid) / current_setting('block_size')::int >= 2 * greatest(relpages, 2) as grown
  from pg_class
  where relnamespace = current_schema()::regnamespace and relkind = 'r'
  order by relname`);

const tables = async (db: Db) => (await db.executeQuery<{ name: string; grown: boolean }>(TABLES)).rows;
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * ANALYZE of every table that grew since its statistics: the new statistics also make PostgreSQL plan the
 * prepared statements on it again. Returns the tables analysed.
 */
export async function analyzeGrownTables(db: Db): Promise<string[]> {
  const grown = (await tables(db)).filter((t) => t.grown).map((t) => t.name);
  for (const name of grown) await db.executeQuery(CompiledQuery.raw(`analyze ${quoted(name)}`));
  return grown;
}

/**
 * VACUUM (ANALYZE) of each table: dead rows become free space, old rows are frozen before the transaction counter
 * wraps, statistics are taken. One table at a time, so that requests get the one session between tables; pages
 * untouched since the last VACUUM are skipped, so it is quick after the first. Returns how many tables.
 */
export async function vacuumTables(db: Db): Promise<number> {
  const all = await tables(db);
  for (const { name } of all) await db.executeQuery(CompiledQuery.raw(`vacuum (analyze) ${quoted(name)}`));
  return all.length;
}
