import { Migrator, type Migration, type MigrationProvider } from "kysely";
import type { Db } from "./database.ts";
import * as m0001 from "./migrations/0001_init.ts";

// Listed here rather than read from disk so that the order is explicit and bundling cannot lose one.
const migrations: Record<string, Migration> = {
  "0001_init": m0001,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
