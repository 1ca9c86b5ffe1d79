// Files the server reads at run time (the spec's bundle, the demo directory) stay in the source tree. The same
// code runs from server/ (tsx, tests) and compiled from dist/server/ (`npm start`), so it finds them from the
// project root: the nearest folder above this file that holds generated/openapi.json.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "generated", "openapi.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("generated/openapi.json not found above the server's files");
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = projectRoot();
/** The contract as one document: the bundle of spec/ that `npm run generate` writes. */
export const SPEC_PATH = path.join(PROJECT_ROOT, "generated", "openapi.json");
/** A file under the source tree, e.g. fromRoot("server/pickup-points/demo/pickup-points.json"). */
export const fromRoot = (relative: string) => path.join(PROJECT_ROOT, relative);
