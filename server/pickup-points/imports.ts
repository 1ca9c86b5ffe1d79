// Directory imports for the CLI: parse, validate every record, then upsert all of them in the caller's
// transaction, or nothing when any record is bad.
import type { Tx } from "../db/transaction.ts";
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

export async function importPickupPoints(
  trx: Tx,
  text: string,
  opts: { fileName?: string; format?: PickupPointFormat } = {},
): Promise<ImportReport> {
  const { records, errors } = parsePickupPoints(text, opts.format ?? detectFormat(text, opts.fileName));
  if (errors.length > 0) return { read: records.length, inserted: 0, updated: 0, unchanged: 0, errors };
  const counts = await q.upsertPoints(trx, records, new Date());
  if (counts.inserted + counts.updated > 0) await q.analyzeDirectory(trx);
  await announceCacheChange(trx);
  return { read: records.length, ...counts, unchanged: records.length - counts.inserted - counts.updated, errors };
}

export async function importPostalCodes(trx: Tx, text: string): Promise<ImportReport> {
  const { records, errors, merged } = parseGeoNamesPostalCodes(text);
  if (errors.length > 0) return { read: records.length, inserted: 0, updated: 0, unchanged: 0, errors, merged };
  const counts = await q.upsertPostalCodes(trx, records, new Date());
  if (counts.inserted + counts.updated > 0) await q.analyzeDirectory(trx);
  await announceCacheChange(trx);
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
