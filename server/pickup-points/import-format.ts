// Pickup point directory files: a JSON array of PickupPoint records, or CSV with the same columns.
// Parsing never stops at the first bad record: the importer shows every problem and imports all or nothing.
import { parse as parseCsv } from "csv-parse/sync";
import type { components } from "../../generated/api.ts";
import { normalisePostalCode, postalCodeProblem } from "../shared/postal-codes.ts";
import { schemaProblems, specValidator } from "../shared/spec-schemas.ts";
import { pickupPointKind } from "./kind.ts";

export type PickupPoint = components["schemas"]["PickupPoint"];
/** A record of an import file: a PickupPoint whose `kind` may be left out (then set from its `carrier_info`). */
export type PickupPointRecord = Omit<PickupPoint, "kind"> & { kind?: PickupPoint["kind"] };

export interface ImportError {
  /** JSON: index of the record in the array (0-based, as in a JSON pointer). */
  record?: number;
  /** CSV and text files: 1-based line where the record starts. */
  line?: number;
  /** Path of the field inside the record (`coordinates/0`, `carrier_info/fi_posti/id`), or the CSV column; null for the whole record or file. */
  field: string | null;
  message: string;
}

export interface ParseResult<T> {
  /** The valid records, in file order. */
  records: T[];
  errors: ImportError[];
}

export type FieldProblem = Pick<ImportError, "field" | "message">;

const NON_BLANK = ["name", "address", "city"] as const;

/**
 * Texts PostgreSQL cannot store (the NUL character, in text and jsonb alike) or that are not text (a lone
 * surrogate), anywhere in the record, by field path: refused here, before the database answers with an error
 * that names no record.
 */
export function unstorableText(value: unknown, path = ""): FieldProblem[] {
  if (typeof value === "string") {
    if (value.includes("\u0000"))
      return [{ field: path || null, message: "must not contain the NUL character (\\u0000)" }];
    if (/\p{Cs}/u.test(value)) return [{ field: path || null, message: "must not contain an unpaired surrogate" }];
    return [];
  }
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...unstorableText(k, path).map((p) => ({ ...p, message: `has a key that ${p.message}` })),
    ...unstorableText(v, path ? `${path}/${k}` : k),
  ]);
}

/**
 * Every problem of one record: the spec's PickupPoint schema (where `kind` may be left out, but when given is one of
 * the schema's words), non-blank texts, the country's postal code shape.
 */
export function validatePickupPoint(value: unknown): FieldProblem[] {
  const validate = specValidator("PickupPoint");
  const withKind =
    value !== null && typeof value === "object" && !Array.isArray(value) && !("kind" in value)
      ? { ...value, kind: "unknown" }
      : value;
  const problems: FieldProblem[] = validate(withKind)
    ? []
    : schemaProblems(validate.errors).map((p) => ({
        field: p.path === "" ? null : p.path.slice(1),
        message: p.message,
      }));
  problems.push(...unstorableText(value).filter((t) => problems.every((p) => p.field !== t.field)));
  if (value === null || typeof value !== "object" || Array.isArray(value)) return problems;
  const rec = value as Record<string, unknown>;
  for (const key of NON_BLANK) {
    if (typeof rec[key] === "string" && rec[key].trim() === "" && problems.every((p) => p.field !== key)) {
      problems.push({ field: key, message: "must not be blank" });
    }
  }
  if (
    typeof rec.country === "string" &&
    typeof rec.postalcode === "string" &&
    problems.every((p) => p.field !== "postalcode")
  ) {
    const problem = postalCodeProblem(rec.country, rec.postalcode);
    if (problem) problems.push({ field: "postalcode", message: problem });
  }
  return problems;
}

/** Validates records in order, adding a duplicate-id check across the file; a record without `kind` gets its carriers'. */
function collect(items: { value: unknown; where: Pick<ImportError, "record" | "line"> }[]): ParseResult<PickupPoint> {
  const records: PickupPoint[] = [];
  const errors: ImportError[] = [];
  const seen = new Map<string, Pick<ImportError, "record" | "line">>();
  for (const { value, where } of items) {
    const problems = validatePickupPoint(value);
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === "string" && problems.every((p) => p.field !== "id")) {
      const first = seen.get(id);
      if (first)
        problems.push({
          field: "id",
          message: `duplicate id, first in ${first.line !== undefined ? `line ${first.line}` : `record ${first.record}`}`,
        });
      else seen.set(id, where);
    }
    if (problems.length === 0) {
      // Stored in the country's form, as lookups ask for it.
      const point = value as PickupPointRecord;
      records.push({
        ...point,
        postalcode: normalisePostalCode(point.country, point.postalcode),
        kind: point.kind ?? pickupPointKind(point.carrier_info),
      });
    } else errors.push(...problems.map((p) => ({ ...where, ...p })));
  }
  return { records, errors };
}

/** Line (1-based) of a character offset, for JSON syntax errors. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function parsePickupPointsJson(text: string): ParseResult<PickupPoint> {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    const message = (err as Error).message;
    const position = /position (\d+)/.exec(message);
    return {
      records: [],
      errors: [
        {
          ...(position ? { line: lineAt(text, Number(position[1])) } : {}),
          field: null,
          message: `not valid JSON: ${message}`,
        },
      ],
    };
  }
  if (!Array.isArray(doc))
    return { records: [], errors: [{ field: null, message: "must be a JSON array of pickup points" }] };
  return collect(doc.map((value: unknown, record) => ({ value, where: { record } })));
}

export const CSV_COLUMNS = [
  "id",
  "name",
  "address",
  "postalcode",
  "city",
  "country",
  "branch",
  "location_info",
  "carrier_info",
] as const;
/** Columns a file may leave out: an empty `kind` cell, or no such column, and the carriers' types set it. */
const OPTIONAL_COLUMNS = ["kind"] as const;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** `60.45`, `[60.45, 22.26]` or `60.45,22.26` / `60.45 22.26` for a `coordinates` cell. */
function coordinatesCell(cell: string): number[] | null {
  const parts = cell
    .replace(/^\[|\]$/g, "")
    .split(/\s*[,;\s]\s*/)
    .filter((s) => s !== "");
  return parts.length === 2 && parts.every((s) => DECIMAL.test(s)) ? parts.map(Number) : null;
}

/**
 * CSV with a header row naming the columns `id,name,address,postalcode,city,country,branch,location_info,
 * carrier_info` and either `lat`+`lon` or one `coordinates` cell, and optionally `kind`; any column order. An empty
 * `location_info` is null; `carrier_info` is a JSON object (empty cell: `{}`); an empty `kind` is left out.
 */
export function parsePickupPointsCsv(text: string): ParseResult<PickupPoint> {
  const errors: ImportError[] = [];
  // csv-parse reports the line where a record ends; a record starts after the previous one (returned or
  // skipped as malformed) and the blank lines skipped since.
  let prevEnd = 1;
  let prevEmpty = 0;
  let header: string[] = [];
  let rows: { record: Record<string, string>; line: number }[];
  try {
    rows = parseCsv(text, {
      columns: (names: string[]) => (header = names.map((h) => h.trim())),
      bom: true,
      skip_empty_lines: true,
      trim: true,
      skip_records_with_error: true,
      on_record: (record: Record<string, string>, info) => {
        const line = prevEnd + 1 + (info.empty_lines - prevEmpty);
        prevEnd = info.lines;
        prevEmpty = info.empty_lines;
        return { record, line };
      },
      on_skip: (err) => {
        const line = (err as { lines?: number } | undefined)?.lines;
        if (err) errors.push({ line, field: null, message: err.message });
        if (line !== undefined) prevEnd = line;
        return undefined;
      },
    });
  } catch (err) {
    return {
      records: [],
      errors: [{ line: (err as { lines?: number }).lines ?? 1, field: null, message: (err as Error).message }],
    };
  }
  if (header.length === 0)
    return { records: [], errors: [{ line: 1, field: null, message: "the header row naming the columns is missing" }] };
  const hasLatLon = header.includes("lat") && header.includes("lon");
  const missing: string[] = CSV_COLUMNS.filter((c) => !header.includes(c));
  if (!hasLatLon && !header.includes("coordinates")) missing.push("coordinates (or lat and lon)");
  const known = new Set<string>([...CSV_COLUMNS, ...OPTIONAL_COLUMNS, "lat", "lon", "coordinates"]);
  const unknown = header.filter((h) => !known.has(h));
  if (missing.length > 0 || unknown.length > 0) {
    return {
      records: [],
      errors: [
        ...missing.map((c) => ({ line: 1, field: c, message: "missing column" })),
        ...unknown.map((c) => ({ line: 1, field: c, message: "unknown column" })),
      ],
    };
  }

  const items: { value: unknown; where: { line: number } }[] = [];
  for (const { record: row, line } of rows) {
    const cellErrors: ImportError[] = [];
    let coordinates: unknown;
    if (hasLatLon) {
      const bad = (["lat", "lon"] as const).filter((c) => !DECIMAL.test(row[c]!));
      for (const c of bad)
        cellErrors.push({ line, field: c, message: `must be a decimal number, got ${JSON.stringify(row[c])}` });
      coordinates = [Number(row.lat), Number(row.lon)];
    } else {
      coordinates = coordinatesCell(row.coordinates!);
      if (!coordinates)
        cellErrors.push({
          line,
          field: "coordinates",
          message: `must be "lat,lon", got ${JSON.stringify(row.coordinates)}`,
        });
    }
    let carrierInfo: unknown = {};
    if (row.carrier_info !== "") {
      try {
        carrierInfo = JSON.parse(row.carrier_info!);
      } catch {
        cellErrors.push({
          line,
          field: "carrier_info",
          message: 'must be a JSON object such as {"fi_posti":{"id":"123"}}',
        });
      }
    }
    const value = {
      id: row.id,
      name: row.name,
      address: row.address,
      postalcode: row.postalcode,
      city: row.city,
      country: row.country,
      coordinates,
      branch: row.branch,
      location_info: row.location_info === "" ? null : row.location_info,
      carrier_info: carrierInfo,
      ...(row.kind !== undefined && row.kind !== "" && { kind: row.kind }),
    };
    if (cellErrors.length > 0) {
      // Still report the row's other problems, but not the unreadable cells a second time.
      const unreadable = cellErrors.map((e) => (e.field === "lat" || e.field === "lon" ? "coordinates" : e.field!));
      const rest = validatePickupPoint(value).filter(
        (p) => !unreadable.some((u) => p.field === u || p.field?.startsWith(`${u}/`)),
      );
      errors.push(...cellErrors, ...rest.map((p) => ({ line, ...p })));
      continue;
    }
    items.push({ where: { line }, value });
  }
  const result = collect(items);
  // Field paths of CSV records name columns: coordinates/0 is the lat column when the file has one.
  const renamed = [...errors, ...result.errors].map((e) =>
    hasLatLon && e.field?.startsWith("coordinates/") ? { ...e, field: e.field === "coordinates/0" ? "lat" : "lon" } : e,
  );
  return { records: result.records, errors: renamed.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
}

export type PickupPointFormat = "json" | "csv";

/** `.json` / `.csv` by file name, else by content (a JSON array starts with `[`). */
export function detectFormat(text: string, fileName?: string): PickupPointFormat {
  const ext = fileName?.toLowerCase().match(/\.(json|csv)$/)?.[1];
  if (ext === "json" || ext === "csv") return ext;
  return text
    .replace(/^\uFEFF/, "")
    .trimStart()
    .startsWith("[")
    ? "json"
    : "csv";
}

export function parsePickupPoints(
  text: string,
  format: PickupPointFormat = detectFormat(text),
): ParseResult<PickupPoint> {
  return format === "json" ? parsePickupPointsJson(text) : parsePickupPointsCsv(text);
}
