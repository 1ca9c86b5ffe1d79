// Postal-code locations in the GeoNames postal-code text format (download.geonames.org/export/zip, e.g. FI.txt):
// UTF-8, one postal code per line, 12 tab-separated columns: country code, postal code, place name,
// admin name1, admin code1, admin name2, admin code2, admin name3, admin code3, latitude, longitude, accuracy.
import { normalisePostalCode, postalCodeProblem } from "../shared/postal-codes.ts";
import { schemaProblems, specValidator } from "../shared/spec-schemas.ts";
import type { ImportError, ParseResult } from "./import-format.ts";

export interface PostalCodeLocation {
  country: string;
  postalcode: string;
  place_name: string;
  admin_name1: string | null;
  admin_code1: string | null;
  admin_name2: string | null;
  admin_code2: string | null;
  admin_name3: string | null;
  admin_code3: string | null;
  /** [lat, lon], WGS 84. */
  coordinates: [number, number];
  /** GeoNames: 1 estimated, 4 geonameid, 6 centroid of addresses or shape; null when not given. */
  accuracy: number | null;
}

export interface GeoNamesResult extends ParseResult<PostalCodeLocation> {
  /** Lines that repeated an earlier country + postal code (GeoNames lists some codes once per place). */
  merged: number;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const orNull = (s: string | undefined) => (s === undefined || s.trim() === "" ? null : s.trim());

function parseLine(cols: string[], line: number): { location?: PostalCodeLocation; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const bad = (field: string, message: string) => errors.push({ line, field, message });
  if (cols.length !== 12 && cols.length !== 11) {
    bad("line", `must have 12 tab-separated columns, has ${cols.length}`);
    return { errors };
  }
  const [country = "", postalcode = "", place = "", an1, ac1, an2, ac2, an3, ac3, latText = "", lonText = "", accText] =
    cols.map((c) => c.trim());
  const countryOk = specValidator("CountryCode");
  if (!countryOk(country))
    bad("country", `must be an ISO 3166-1 alpha-2 code in upper case, got ${JSON.stringify(country)}`);
  const postalOk = specValidator("PostalCode");
  if (!postalOk(postalcode)) {
    bad(
      "postalcode",
      `${JSON.stringify(postalcode)} ${schemaProblems(postalOk.errors)
        .map((p) => p.message)
        .join("; ")}`,
    );
  } else {
    const problem = postalCodeProblem(country, postalcode);
    if (problem) bad("postalcode", `${JSON.stringify(postalcode)} ${problem}`);
  }
  if (place === "") bad("place_name", "must not be empty");
  const lat = Number(latText);
  const lon = Number(lonText);
  if (!DECIMAL.test(latText) || lat < -90 || lat > 90)
    bad("latitude", `must be a number from -90 to 90, got ${JSON.stringify(latText)}`);
  if (!DECIMAL.test(lonText) || lon < -180 || lon > 180)
    bad("longitude", `must be a number from -180 to 180, got ${JSON.stringify(lonText)}`);
  let accuracy: number | null = null;
  if (orNull(accText) !== null) {
    accuracy = Number(accText);
    if (!/^[1-6]$/.test(accText!)) bad("accuracy", `must be empty or 1 to 6, got ${JSON.stringify(accText)}`);
  }
  if (errors.length > 0) return { errors };
  return {
    errors,
    location: {
      country,
      postalcode: normalisePostalCode(country, postalcode),
      place_name: place,
      admin_name1: orNull(an1),
      admin_code1: orNull(ac1),
      admin_name2: orNull(an2),
      admin_code2: orNull(ac2),
      admin_name3: orNull(an3),
      admin_code3: orNull(ac3),
      coordinates: [lat, lon],
      accuracy,
    },
  };
}

/**
 * Every valid line as one location per country + postal code, and every bad line by its 1-based number.
 * Blank lines are skipped. A code listed again (for another place) is merged into the first: coordinates become
 * the mean of its places, the first place name stays, so an upsert by (country, postal code) sees each key once.
 */
export function parseGeoNamesPostalCodes(text: string): GeoNamesResult {
  const byKey = new Map<string, { location: PostalCodeLocation; n: number }>();
  const errors: ImportError[] = [];
  let merged = 0;
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, i) => {
    if (raw.trim() === "") return;
    if (raw.includes("\u0000")) {
      errors.push({ line: i + 1, field: "line", message: "must not contain the NUL character (\\u0000)" });
      return;
    }
    const { location, errors: lineErrors } = parseLine(raw.split("\t"), i + 1);
    errors.push(...lineErrors);
    if (!location) return;
    const key = `${location.country} ${location.postalcode}`;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { location, n: 1 });
      return;
    }
    merged++;
    const [lat, lon] = seen.location.coordinates;
    seen.location.coordinates = [
      (lat * seen.n + location.coordinates[0]) / (seen.n + 1),
      (lon * seen.n + location.coordinates[1]) / (seen.n + 1),
    ];
    seen.n++;
  });
  return { records: [...byKey.values()].map((v) => v.location), errors, merged };
}

/** One location as a GeoNames line (no trailing newline), for generated and demo files. */
export function formatGeoNamesLine(l: PostalCodeLocation): string {
  return [
    l.country,
    l.postalcode,
    l.place_name,
    l.admin_name1,
    l.admin_code1,
    l.admin_name2,
    l.admin_code2,
    l.admin_name3,
    l.admin_code3,
    l.coordinates[0].toFixed(4),
    l.coordinates[1].toFixed(4),
    l.accuracy,
  ]
    .map((v) => (v === null ? "" : String(v)))
    .join("\t");
}
