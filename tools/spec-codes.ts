// The spec's country and currency enums come from well-kept ISO lists, not from hand typing:
// ISO 3166-1 alpha-2 from i18n-iso-countries, ISO 4217 from currency-codes (less XTS, reserved for testing,
// and XXX, "no currency"). Quoted: YAML 1.1 readers take a bare NO (Norway) for false. `npm run generate:codes` rewrites
// every enum line marked `# iso-3166-1-alpha-2` or `# iso-4217`, in whichever file of spec/ holds it (then run
// `npm run generate` to bundle); `--check` only reports whether it would change anything.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

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

/** Every YAML file of the spec tree, relative to the project root, in a stable order. */
export function specFiles(dir = "spec"): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => path.join(dir, f))
    .sort();
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  let stale = false;
  for (const file of specFiles()) {
    const text = readFileSync(file, "utf8");
    const next = withCodes(text);
    if (next === text) continue;
    if (process.argv.includes("--check")) {
      console.error(`${file}: the code lists are out of date: run npm run generate:codes`);
      stale = true;
    } else writeFileSync(file, next);
  }
  if (stale) process.exit(1);
}
