// The docs' parts that come from code: docs/configuration.md's table of settings is rendered from the declared
// table (server/config/settings.ts), between its marker comments. `npm run generate:docs` rewrites it; `--check`
// only reports whether it would change anything (test/unit/config-docs.test.ts fails on the same drift).
import { readFileSync, writeFileSync } from "node:fs";
import { allSettings } from "../server/config/readers.ts";
import { SETTINGS } from "../server/config/settings.ts";

export const CONFIGURATION_DOC = "docs/configuration.md";
const START = "<!-- settings:start: generated from server/config/settings.ts by npm run generate:docs -->";
const END = "<!-- settings:end -->";

/** The operator's table: one row per variable, in the declared order. */
export function settingsTable(): string {
  const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");
  const rows = allSettings(SETTINGS).map((s) =>
    [`\`${s.name}\``, s.shownDefault, s.allowed, s.meaning].map(cell).join(" | "),
  );
  return ["| Variable | Default | Allowed | Meaning |", "|---|---|---|---|", ...rows.map((r) => `| ${r} |`)].join("\n");
}

/** The page with the table between its markers replaced by what the declared table renders today. */
export function withSettingsTable(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${CONFIGURATION_DOC}: the markers ${START} ... ${END} are missing`);
  return `${page.slice(0, start + START.length)}\n${settingsTable()}\n${page.slice(end)}`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const page = readFileSync(CONFIGURATION_DOC, "utf8");
  const next = withSettingsTable(page);
  if (process.argv.includes("--check")) {
    if (next !== page) {
      console.error(`${CONFIGURATION_DOC}: the table of settings is out of date: run npm run generate:docs`);
      process.exit(1);
    }
  } else if (next !== page) writeFileSync(CONFIGURATION_DOC, next);
}
