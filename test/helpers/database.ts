import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { inject } from "vitest";
import { createDatabase, dropDatabase } from "../../tools/postgres.ts";
import { releasePooled } from "./pgbouncer.ts";

/**
 * A private database for one test file, on the engine this project runs on: migrated, or `empty` (as a new
 * install finds it) for tests of the migrations themselves.
 */
export async function createTestDatabase({ empty = false } = {}): Promise<DatabaseHandle & { url?: string }> {
  if (process.env.TEST_DB === "postgres") {
    const adminUrl = process.env.TEST_PG_URL!;
    const name = `logistics_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    // A copy of the run's migrated template (global-setup.ts), or empty.
    await createDatabase(adminUrl, name, empty ? undefined : inject("pgTemplate"));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    // npm run test:pgbouncer: the test's connections go through the suite's PgBouncer in transaction mode, as a
    // server told DATABASE_POOL_MODE=transaction runs; LISTEN takes the direct URL (DATABASE_LISTEN_URL).
    const bouncerPort = inject("pgbouncerPort");
    const pooled = new URL(url);
    if (bouncerPort) pooled.port = String(bouncerPort);
    const handle = await openDatabase({
      databaseUrl: pooled.toString(),
      pgliteDir: "",
      ...(bouncerPort && { poolMode: "transaction", listenUrl: url.toString() }),
    });
    if (!empty) await migrateToLatest(handle.db);
    return {
      ...handle,
      url: url.toString(),
      close: async () => {
        await handle.close();
        // The pooler keeps its server connections open after the clients left: close them, or DROP waits.
        if (bouncerPort) await releasePooled(bouncerPort, adminUrl, name);
        await dropDatabase(adminUrl, name);
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "logistics-test-"));
  if (!empty) cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  // Relaxed: these tests are not about durability (test/process/durable-commits.test.ts is), and a flush per
  // answer would only slow them.
  const handle = await openDatabase({ pgliteDir: path.join(dir, "db"), durability: "relaxed" });
  if (!empty) await migrateToLatest(handle.db);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
