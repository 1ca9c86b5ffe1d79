// Directory imports for the CLI: parse and validate every record (one bad record: nothing is stored), then upsert
// them in slices. Given the database, each slice commits on its own, within the statement timeout, so an import of
// a country's directory never holds a transaction open for minutes; given a transaction, all of it is the caller's.
import type { Executor } from "../db/transaction.ts";
import { inTransaction } from "../db/transaction.ts";
import { announceCacheChange } from "../db/cache-signal.ts";
import * as q from "./db.ts";
import { parseGeoNamesPostalCodes } from "./geonames-format.ts";
import { detectFormat, parsePickupPoints, type ImportError, type PickupPointFormat } from "./import-format.ts";

export interface ImportReport {
  /** Valid records read from the file. */
  read: number;
  inserted: number;
  updated: number;
  /** Valid records identical to what was stored. */
  unchanged: number;
  /** Every problem by record or line; when not empty nothing was stored. */
  errors: ImportError[];
  /** GeoNames lines that repeated a postal code and were merged into it. */
  merged?: number;
}

/** Records per slice: one statement each, a fraction of a second on these machines. */
export const IMPORT_SLICE = 2000;

async function inSlices<T>(
  db: Executor,
  items: readonly T[],
  upsert: (db: Executor, slice: readonly T[]) => Promise<q.UpsertCounts>,
): Promise<q.UpsertCounts> {
  const counts = { inserted: 0, updated: 0 };
  for (let i = 0; i < items.length; i += IMPORT_SLICE) {
    const slice = items.slice(i, i + IMPORT_SLICE);
    const c = db.isTransaction ? await upsert(db, slice) : await inTransaction(db, (trx) => upsert(trx, slice));
    counts.inserted += c.inserted;
    counts.updated += c.updated;
  }
  return counts;
}

/** Fresh statistics and other instances' caches told, once the rows are stored. */
async function finish(db: Executor, changed: boolean): Promise<void> {
  const work = async (trx: Executor) => {
    if (changed) await q.analyzeDirectory(trx);
    await announceCacheChange(trx);
  };
  await (db.isTransaction ? work(db) : inTransaction(db, work));
}

export async function importPickupPoints(
  db: Executor,
  text: string,
  opts: { fileName?: string; format?: PickupPointFormat } = {},
): Promise<ImportReport> {
  const { records, errors } = parsePickupPoints(text, opts.format ?? detectFormat(text, opts.fileName));
  if (errors.length > 0) return { read: records.length, inserted: 0, updated: 0, unchanged: 0, errors };
  const now = new Date();
  const counts = await inSlices(db, records, (ex, slice) => q.upsertPoints(ex, slice, now));
  await finish(db, counts.inserted + counts.updated > 0);
  return { read: records.length, ...counts, unchanged: records.length - counts.inserted - counts.updated, errors };
}

export async function importPostalCodes(db: Executor, text: string): Promise<ImportReport> {
  const { records, errors, merged } = parseGeoNamesPostalCodes(text);
  if (errors.length > 0) return { read: records.length, inserted: 0, updated: 0, unchanged: 0, errors, merged };
  const now = new Date();
  const counts = await inSlices(db, records, (ex, slice) => q.upsertPostalCodes(ex, slice, now));
  await finish(db, counts.inserted + counts.updated > 0);
  return {
    read: records.length,
    ...counts,
    unchanged: records.length - counts.inserted - counts.updated,
    errors,
    merged,
  };
}

/** One problem as a line of the CLI's report: `record 3, coordinates/0: must be <= 90`. */
export function describeImportError(e: ImportError): string {
  const where = e.line !== undefined ? `line ${e.line}` : e.record !== undefined ? `record ${e.record}` : "file";
  return `${where}${e.field ? `, ${e.field}` : ""}: ${e.message}`;
}
