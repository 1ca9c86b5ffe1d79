import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Migrator, sql, type Migration, type MigrationProvider } from "kysely";
import type { Db } from "./database.ts";

// Every file in migrations/ is a migration, applied in name order (0001_..., 0002_...). A shipped
// migration is never edited: a change is a new file. Imported from here rather than by Kysely's
// FileMigrationProvider so that the TypeScript loader in use (tsx, vitest) handles them.
const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

const provider: MigrationProvider = {
  async getMigrations() {
    const files = (await readdir(folder)).filter((f) => /^\d{4}_[\w-]+\.[jt]s$/.test(f)).sort();
    const entries = await Promise.all(files.map(async (f) => [f.replace(/\.[jt]s$/, ""), unlimited((await import(pathToFileURL(path.join(folder, f)).href)) as Migration)] as const));
    return Object.fromEntries(entries);
  },
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

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
