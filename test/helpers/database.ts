import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { inject } from "vitest";
import { dropDatabase } from "../../tools/postgres.ts";

/**
 * A private database for one test file, on the engine this project runs on: migrated, or `empty` (as a new
 * install finds it) for tests of the migrations themselves.
 */
export async function createTestDatabase({ empty = false } = {}): Promise<DatabaseHandle & { url?: string }> {
  if (process.env.TEST_DB === "postgres") {
    const adminUrl = process.env.TEST_PG_URL!;
    const name = `logistics_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
    if (!empty) await migrateToLatest(handle.db);
    return {
      ...handle,
      url: url.toString(),
      close: async () => {
        await handle.close();
        await dropDatabase(adminUrl, name);
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "logistics-test-"));
  if (!empty) cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  const handle = await openDatabase({ pgliteDir: path.join(dir, "db") });
  if (!empty) await migrateToLatest(handle.db);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
