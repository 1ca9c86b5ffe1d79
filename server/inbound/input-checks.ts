// Input rules the schema cannot express: duplicates, GTIN check digits, cents, real calendar dates.
import type { ArrivalLineInput, ProductLineInput } from "../../generated/api.ts";
import { invalid, type ErrorDetail } from "../shared/errors.ts";
import { isValidGtin } from "../shared/gtin.ts";
import { hasAtMostTwoDecimals } from "../shared/money.ts";
import { isCalendarDate } from "../shared/time.ts";

export function checkLines(
  lines: ProductLineInput[] | ArrivalLineInput[],
  pointer: string,
  details: ErrorDetail[],
): void {
  const seen = new Set<string>();
  lines.forEach((l, i) => {
    if (seen.has(l.merchants_id)) {
      details.push({
        path: `${pointer}/${i}/merchants_id`,
        message: `merchants_id ${l.merchants_id} appears more than once`,
        code: "duplicate",
      });
    }
    seen.add(l.merchants_id);
    if (l.gtin !== undefined && !isValidGtin(l.gtin)) {
      details.push({ path: `${pointer}/${i}/gtin`, message: "GTIN check digit is wrong", code: "gtin" });
    }
    if ("purchasePrice" in l && l.purchasePrice !== undefined && !hasAtMostTwoDecimals(l.purchasePrice)) {
      details.push({ path: `${pointer}/${i}/purchasePrice`, message: "at most two decimals", code: "multipleOf" });
    }
  });
}

export function checkDate(value: string | null | undefined, pointer: string, details: ErrorDetail[]): void {
  if (typeof value === "string" && !isCalendarDate(value)) {
    details.push({ path: pointer, message: "must be a real calendar date (YYYY-MM-DD)", code: "format" });
  }
}

export function throwIfAny(details: ErrorDetail[]): void {
  if (details.length) throw invalid(details);
}
