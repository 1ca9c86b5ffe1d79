// A benchmark database with a generated pickup point directory, made before its server starts.
import { openDatabase } from "../server/db/database.ts";
import { migrateToLatest } from "../server/db/migrate.ts";
import { inTransaction } from "../server/db/transaction.ts";
import { seedDemo } from "../server/demo.ts";
import { analyzeDirectory, upsertPoints, upsertPostalCodes } from "../server/pickup-points/db.ts";
import type { GeneratedDirectory } from "../tools/generate-pickup-points.ts";

/** Migrates, seeds the demo merchant and prices, and imports the directory; returns the milliseconds it took. */
export async function prepareDirectory(
  database: { DATABASE_URL: string } | { PGLITE_DIR: string },
  directory: GeneratedDirectory,
): Promise<number> {
  const t0 = Date.now();
  const handle = await openDatabase(
    "DATABASE_URL" in database
      ? { databaseUrl: database.DATABASE_URL, pgliteDir: "", statementTimeoutMs: 0 }
      : { pgliteDir: database.PGLITE_DIR },
  );
  try {
    await migrateToLatest(handle.db);
    await seedDemo(handle.db);
    const now = new Date();
    await inTransaction(handle.db, async (trx) => {
      await upsertPoints(trx, directory.points, now);
      await upsertPostalCodes(trx, directory.postalCodes, now);
      await analyzeDirectory(trx);
    });
  } finally {
    await handle.close();
  }
  return Date.now() - t0;
}
