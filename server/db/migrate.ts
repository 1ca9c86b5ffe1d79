import { Migrator, sql, type Migration, type MigrationProvider } from "kysely";
import type { Db } from "./database.ts";
import { MIGRATIONS } from "./migrations/index.ts";

const provider: MigrationProvider = {
  getMigrations: async () => Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, unlimited(m)])),
};

/** A migration may build an index on a large table: the request-sized statement timeout does not apply to it. */
function unlimited(m: Migration): Migration {
  return {
    ...m,
    up: async (db) => {
      await sql`set local statement_timeout = 0`.execute(db);
      await m.up(db);
    },
  };
}

/** The migrations recorded as applied, or undefined on a database that has never been migrated. */
async function recorded(db: Db): Promise<Set<string> | undefined> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    return new Set(rows.map((r) => r.name));
  } catch (err) {
    if ((err as { code?: string }).code === "42P01") return undefined; // undefined_table
    throw err;
  }
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  // The usual start finds every migration applied: one query says so. Kysely's migrator would first
  // introspect the whole catalogue (~400 ms on PGlite); it runs, with its lock, only when there is work.
  const done = await recorded(db);
  if (done && Object.keys(MIGRATIONS).every((name) => done.has(name))) return [];
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error("migration failed", { cause: error });
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
