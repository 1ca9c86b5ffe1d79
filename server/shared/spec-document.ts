// The contract as the server reads it: generated/openapi.json, the one document `npm run generate` bundles from
// the files under spec/.
import { readFileSync } from "node:fs";
import { stringify } from "yaml";
import { SPEC_PATH } from "./paths.ts";

let doc: unknown;
let yamlText: string | undefined;

/** The parsed spec (read-only: callers that change a document must clone it first). */
export function specDocument(): unknown {
  return (doc ??= JSON.parse(readFileSync(SPEC_PATH, "utf8")));
}

/** The spec as YAML (served at /openapi.yaml), written from the bundle on first use. */
export function specYaml(): string {
  // YAML 1.1 rules quote every string a 1.1 reader would take for something else (the country NO, dates),
  // and such a quoted string is a string to a YAML 1.2 reader too.
  return (yamlText ??= stringify(specDocument(), { version: "1.1", lineWidth: 0 }));
}
