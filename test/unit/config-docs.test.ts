// docs/configuration.md's table of settings is what the declared table (server/config/settings.ts) renders:
// a setting added, removed or changed without `npm run generate:docs` fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allSettings } from "../../server/config/readers.ts";
import { SETTINGS } from "../../server/config/settings.ts";
import { CONFIGURATION_DOC, settingsTable, withSettingsTable } from "../../tools/generate-docs.ts";

const page = readFileSync(path.resolve(import.meta.dirname, "../..", CONFIGURATION_DOC), "utf8");

describe("docs/configuration.md", () => {
  it("holds the table the declared settings render (else: npm run generate:docs)", () => {
    expect(page).toBe(withSettingsTable(page));
  });

  it("has one row per declared variable, with its default", () => {
    const table = settingsTable();
    for (const s of allSettings(SETTINGS))
      expect(table).toContain(`| \`${s.name}\` | ${s.shownDefault} | ${s.allowed} |`);
    expect(table.split("\n")).toHaveLength(allSettings(SETTINGS).length + 2);
  });

  it("notices a table edited by hand", () => {
    const edited = page.replace("| `PORT` | `3000` |", "| `PORT` | `8080` |");
    expect(edited).not.toBe(page);
    expect(withSettingsTable(edited)).toBe(page);
  });
});
