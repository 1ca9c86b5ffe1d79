// What a build read, with each file's hash, kept beside its output: `npm start` builds only what changed since
// (a server build is ~1 s and the portal's ~3 s, at every start otherwise). Dependencies count as one input,
// package-lock.json, so that a start does not hash node_modules.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Every file under `dir` (relative to the repository), node_modules excepted. */
export function filesUnder(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(path.join(root, d), { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      const rel = path.join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  if (existsSync(path.join(root, dir)) && statSync(path.join(root, dir)).isDirectory()) walk(dir);
  return out;
}

/** Whether `output` exists and every input listed in `manifest` still has the hash it had when it was built. */
export function upToDate(manifest, output) {
  const m = path.join(root, manifest);
  if (!existsSync(path.join(root, output)) || !existsSync(m)) return false;
  try {
    const { inputs } = JSON.parse(readFileSync(m, "utf8"));
    return Object.entries(inputs).every(
      ([f, hash]) => existsSync(path.join(root, f)) && sha256(path.join(root, f)) === hash,
    );
  } catch {
    return false;
  }
}

/** Records what a finished build read (written whole, then renamed: a reader never sees half of it). */
export function recordInputs(manifest, files) {
  const all = [...new Set([...files, "package-lock.json"])].filter((f) => !f.split(path.sep).includes("node_modules"));
  const inputs = Object.fromEntries(all.sort().map((f) => [f, sha256(path.join(root, f))]));
  const m = path.join(root, manifest);
  writeFileSync(`${m}.${process.pid}`, JSON.stringify({ inputs }, null, 1));
  renameSync(`${m}.${process.pid}`, m);
}

/** What the portal's build reads (`npm start`'s and the browser tests' own, test/helpers/global-setup.ts). */
export const portalInputs = () => [
  ...filesUnder("portal"),
  ...filesUnder("client"),
  ...filesUnder("generated"),
  "tools/build-portal.mjs",
  "package.json",
];
