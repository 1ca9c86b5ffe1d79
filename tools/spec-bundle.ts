// The contract is written as a tree of files under spec/ (a short root, one file per path item, webhook event and
// group of components); everything else reads the one document Redocly bundles from it, generated/openapi.json.
// `npm run generate` writes it (then openapi-typescript reads it); `--check` only reports whether it is current.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

export const SPEC_ROOT = "spec/openapi.yaml";
export const BUNDLE = "generated/openapi.json";

/** The bundle of the spec tree as it is today. */
export function bundleSpec(): string {
  const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
  // A renamed component would change every generated type that refers to it: fail instead.
  return execFileSync(
    process.execPath,
    [cli, "bundle", SPEC_ROOT, "--ext=json", "--component-renaming-conflicts-severity=error"],
    {
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const next = bundleSpec();
  let current = "";
  try {
    current = readFileSync(BUNDLE, "utf8");
  } catch {
    // not bundled yet
  }
  if (process.argv.includes("--check")) {
    if (next !== current) {
      console.error(`${BUNDLE} is not the bundle of ${SPEC_ROOT}: run npm run generate`);
      process.exit(1);
    }
  } else if (next !== current) writeFileSync(BUNDLE, next);
}
