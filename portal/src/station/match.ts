// What a scanned or typed code means on a shipment: the line whose GTIN it is, several lines that share it (the
// person picks one), lines found by SKU or name (for products without a GTIN), a GTIN that is not on the notice,
// or nothing. Pure functions: the receiving screen decides what to ask.

/** A line as the station counts it: what the service has, plus this station's scans not sent yet. */
export interface CountLine {
  merchants_id: string;
  name: string;
  gtin: string;
  /** Announced (0 for a product that was not on the notice). */
  qty: number;
  /** Arrived by the service's count, and this station's scans waiting to be sent. */
  counted: number;
  unsent: number;
}

export type Match =
  | { kind: "line"; line: CountLine }
  | { kind: "choose"; lines: CountLine[]; by: "gtin" | "name" }
  | { kind: "not_on_notice"; gtin: string }
  | { kind: "bad_gtin" }
  | { kind: "none" };

/** GTIN-8, -12, -13 and -14 compared as the 14 digits they stand for ("06410405082657" is "6410405082657"). */
const asGtin14 = (code: string) => code.padStart(14, "0");
const DIGITS = /^(\d{8}|\d{12}|\d{13}|\d{14})$/;

/** A GTIN's check digit holds (the service refuses one that does not: a misread scan). */
export function validGtin(code: string): boolean {
  if (!DIGITS.test(code)) return false;
  const digits = [...asGtin14(code)].map(Number);
  const sum = digits.slice(0, 13).reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === digits[13];
}

export function matchCode(raw: string, lines: CountLine[]): Match {
  const code = raw.trim();
  if (!code) return { kind: "none" };
  if (/^\d+$/.test(code) && DIGITS.test(code)) {
    const byGtin = lines.filter((l) => l.gtin && asGtin14(l.gtin) === asGtin14(code));
    if (byGtin.length === 1) return { kind: "line", line: byGtin[0]! };
    if (byGtin.length > 1) return { kind: "choose", lines: byGtin, by: "gtin" };
  }
  const lower = code.toLowerCase();
  const bySku = lines.filter((l) => l.merchants_id.toLowerCase() === lower);
  if (bySku.length === 1) return { kind: "line", line: bySku[0]! };
  const byName = lines.filter(
    (l) => l.name.toLowerCase().includes(lower) || l.merchants_id.toLowerCase().includes(lower),
  );
  if (byName.length > 0) return { kind: "choose", lines: byName, by: "name" };
  if (DIGITS.test(code)) return validGtin(code) ? { kind: "not_on_notice", gtin: code } : { kind: "bad_gtin" };
  return { kind: "none" };
}

/** Counting `n` more of a line goes past what was announced (a product not on the notice was decided already). */
export const overCount = (line: CountLine, n: number) => line.qty > 0 && line.counted + line.unsent + n > line.qty;
