// The spec, read and parsed once per process. Parsing 4,000 lines of YAML costs ~300 ms of start-up, so the
// parsed form is kept as JSON under node_modules/.cache with the YAML's hash: the next start reads that instead,
// and an edited spec (another hash) is parsed again. A cache that cannot be written is only slower, never wrong.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { PROJECT_ROOT, SPEC_PATH } from "./paths.ts";

const CACHE_FILE = path.join(PROJECT_ROOT, "node_modules", ".cache", "logistics-api", "openapi.json");

let text: string | undefined;
let doc: unknown;

/** The spec's YAML exactly as written (served at /openapi.yaml). */
export function specText(): string {
  return (text ??= readFileSync(SPEC_PATH, "utf8"));
}

/** The parsed spec (read-only: callers that change a document must clone it first). */
export function specDocument(): unknown {
  return (doc ??= parseCached(specText(), CACHE_FILE));
}

/** `yamlText` parsed, through the JSON kept in `cacheFile` when that was made from the same text. */
export function parseCached(yamlText: string, cacheFile: string): unknown {
  const hash = createHash("sha256").update(yamlText).digest("hex");
  try {
    const cached = JSON.parse(readFileSync(cacheFile, "utf8")) as { hash: string; spec: unknown };
    if (cached.hash === hash) return cached.spec;
  } catch {
    // missing or unreadable: parse the YAML below
  }
  const parsed: unknown = parse(yamlText);
  try {
    mkdirSync(path.dirname(cacheFile), { recursive: true });
    // Renamed into place, so a process starting meanwhile never reads half a file.
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ hash, spec: parsed }));
    renameSync(tmp, cacheFile);
  } catch {
    // read-only install: every start parses the YAML
  }
  return parsed;
}
