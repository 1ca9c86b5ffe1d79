// Postal codes in their country's one form, on top of the spec's general PostalCode pattern (which every code must
// also match as sent). Every code is normalised once, where it enters (queries, orders, imports, price rules), so
// that rules, quotes, orders and lookups compare one spelling: SE `98138` is `981 38`, GB `ze1-0aa` is `ZE1 0AA`.
// A table rather than a library: the validation packages (postcode-validator, postal-codes-js) have patterns but no
// formatting, and `postcode` formats GB only; each form here is "these characters, a separator at this position".
import type { ErrorDetail } from "./errors.ts";

interface CountryForm {
  /** The code without spaces and hyphens, upper case. */
  compact: RegExp;
  /** The country's spelling of a compact code that matched. */
  format: (compact: string) => string;
  example: string;
}

const asIs = (c: string) => c;
/** A separator before the last `n` characters: SE `981 38`, GB `ZE1 0AA`, PL `00-950`. */
const split =
  (n: number, sep = " ") =>
  (c: string) =>
    `${c.slice(0, -n)}${sep}${c.slice(-n)}`;

const FORMS: Record<string, CountryForm> = {
  FI: { compact: /^\d{5}$/, format: asIs, example: "00100" },
  AX: { compact: /^22\d{3}$/, format: asIs, example: "22100" },
  EE: { compact: /^\d{5}$/, format: asIs, example: "10111" },
  SE: { compact: /^\d{5}$/, format: split(2), example: "111 22" },
  NO: { compact: /^\d{4}$/, format: asIs, example: "0150" },
  DK: { compact: /^\d{4}$/, format: asIs, example: "1050" },
  DE: { compact: /^\d{5}$/, format: asIs, example: "10115" },
  GB: { compact: /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/, format: split(3), example: "ZE1 0AA" },
  NL: { compact: /^\d{4}[A-Z]{2}$/, format: split(2), example: "1011 AB" },
  PL: { compact: /^\d{5}$/, format: split(3, "-"), example: "00-950" },
  CZ: { compact: /^\d{5}$/, format: split(2), example: "110 00" },
  SK: { compact: /^\d{5}$/, format: split(2), example: "811 01" },
  GR: { compact: /^\d{5}$/, format: split(2), example: "105 57" },
  CA: { compact: /^[A-Z]\d[A-Z]\d[A-Z]\d$/, format: split(3), example: "K1A 0B1" },
  US: { compact: /^\d{5}(\d{4})?$/, format: (c) => (c.length === 9 ? split(4, "-")(c) : c), example: "10001" },
};

/** The code without spaces and hyphens, upper case: two spellings of one code have the same compact form. */
export const compactPostalCode = (code: string) => code.replace(/[\s-]/g, "").toUpperCase();

/**
 * `code` in `country`'s form; a country without one here: upper case, each run of spaces one space. A code the
 * country cannot have is returned as it came (postalCodeProblem refuses it where it enters).
 */
export function normalisePostalCode(country: string, code: string): string {
  const form = Object.hasOwn(FORMS, country) ? FORMS[country] : undefined;
  if (!form) return code.trim().replace(/\s+/g, " ").toUpperCase();
  const compact = compactPostalCode(code);
  return form.compact.test(compact) ? form.format(compact) : code;
}

/**
 * The value rule of an operation whose query names a customer's `postalcode` and `country` (shipping options, the
 * pickup point lookups): a postal code the country can have. The query may not have passed its schema (see
 * operations.ts ValueRule): only strings count; a missing country is the operation's default.
 */
export function queryPostalCodeProblems(query: Record<string, unknown>, defaultCountry: string): ErrorDetail[] {
  const { postalcode, country = defaultCountry } = query;
  const problem =
    typeof postalcode === "string" && typeof country === "string" ? postalCodeProblem(country, postalcode) : null;
  return problem ? [{ path: "/query/postalcode", message: problem, code: "pattern" }] : [];
}

/** Why `postalcode` (in any spelling) cannot be a postal code of `country`, or null when it can. */
export function postalCodeProblem(country: string, postalcode: string): string | null {
  const form = Object.hasOwn(FORMS, country) ? FORMS[country] : undefined;
  if (!form || form.compact.test(compactPostalCode(postalcode))) return null;
  return `is not a postal code of ${country} (e.g. "${form.example}")`;
}
