import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { inject } from "vitest";
import { createDatabase, dropDatabase } from "../../tools/postgres.ts";
import { releasePooled } from "./pgbouncer.ts";

/**
 * PGlite's WebAssembly, compiled once and kept for as long as the test process lives. V8 shares a compiled module
 * with every later compile of the same bytes in the process while one is alive, with its optimised code: each test
 * file's PGlite thread then starts on it instead of compiling anew. Measured on a copy of the migrated template:
 * ~2.2 s of processor time per open and close, ~1.1 s with this module kept (the module itself: ~0.2 s, once).
 * Nothing is handed to PGlite: the server's code is the same; only the process's compilations are shared.
 */
let pgliteWasm: Promise<WebAssembly.Module> | undefined;
const keepPGliteCompiled = () =>
  (pgliteWasm ??= WebAssembly.compile(
    readFileSync(createRequire(import.meta.url).resolve("@electric-sql/pglite/pglite.wasm")),
  ));

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
  await keepPGliteCompiled();
  // In memory where the machine has a tmpfs (vitest.config.ts points TMPDIR at it).
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
