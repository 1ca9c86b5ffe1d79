// The spec's country and currency enums come from well-kept ISO lists, not from hand typing:
// ISO 3166-1 alpha-2 from i18n-iso-countries, ISO 4217 from currency-codes (less XTS, reserved for testing,
// and XXX, "no currency"). Quoted: YAML 1.1 readers take a bare NO (Norway) for false. `npm run generate:codes` rewrites every enum line in spec/openapi.yaml marked
// `# iso-3166-1-alpha-2` or `# iso-4217`; `--check` only reports whether it would change anything.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const countries = require("i18n-iso-countries") as { getAlpha2Codes(): Record<string, string> };
const currencies = require("currency-codes") as { codes(): string[] };

export const COUNTRY_CODES = Object.keys(countries.getAlpha2Codes()).sort();
export const CURRENCY_CODES = currencies
  .codes()
  .filter((c) => c !== "XTS" && c !== "XXX")
  .sort();

const LISTS: Record<string, string[]> = { "iso-3166-1-alpha-2": COUNTRY_CODES, "iso-4217": CURRENCY_CODES };

/** The spec text with every marked enum line holding its list. */
export function withCodes(spec: string): string {
  return spec.replace(
    /^(\s*)enum: \[[^\]\n]*\] # (iso-3166-1-alpha-2|iso-4217)$/gm,
    (_m, indent: string, list: string) =>
      `${indent}enum: [ ${LISTS[list]!.map((c) => `"${c}"`).join(", ")} ] # ${list}`,
  );
}

const SPEC = "spec/openapi.yaml";
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const text = readFileSync(SPEC, "utf8");
  const next = withCodes(text);
  if (process.argv.includes("--check")) {
    if (next !== text) {
      console.error(`${SPEC}: the code lists are out of date: run npm run generate:codes`);
      process.exit(1);
    }
  } else if (next !== text) writeFileSync(SPEC, next);
}
