// What a build read, with each file's hash, kept beside its output: `npm start` builds only what changed since
// (a server build is ~1 s and the portal's ~3 s, at every start otherwise). Dependencies count as one input,
// package-lock.json, so that a start does not hash node_modules.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

/**
 * A file's size and modification time: when both are as recorded, the file is taken as unchanged without reading
 * it (hashing every input was ~130 ms of each `npm start`, bench/levers.md "Start to ready, again"), else its hash
 * decides. Recorded only for a file last changed more than RACY_MS before the recording: a file's time has the
 * granularity of the kernel's clock tick, so a change made within the same tick as an earlier one, right after the
 * recording, could keep both its size and its time (git's "racy" entries); such a file is hashed at every check.
 */
const RACY_MS = 2_000;
const statOf = (file) => {
  const st = statSync(file);
  return { stamp: `${st.size}:${st.mtimeMs}`, mtimeMs: st.mtimeMs };
};

/** The stamps to record beside the hashes of `files` (absolute paths by their recorded names). */
export function stampsOf(named) {
  const now = Date.now();
  const out = {};
  for (const [name, file] of named) {
    const { stamp, mtimeMs } = statOf(file);
    if (mtimeMs < now - RACY_MS) out[name] = stamp;
  }
  return out;
}

/**
 * Whether every input recorded in the manifest `m` (its `inputs`, names relative to the repository, and `stamps`)
 * still is what was recorded: its stamp as recorded, else its hash. When all are and some had to be hashed (a
 * manifest written before the stamps, a file touched but not changed), their stamps are recorded now, so that the
 * next check reads no file.
 */
export function inputsUnchanged(m, manifest) {
  const { inputs, stamps = {} } = manifest;
  const hashed = [];
  for (const [f, hash] of Object.entries(inputs)) {
    const file = path.join(root, f);
    if (!existsSync(file)) return false;
    if (stamps[f] !== undefined && statOf(file).stamp === stamps[f]) continue;
    if (sha256(file) !== hash) return false;
    hashed.push([f, file]);
  }
  const fresh = stampsOf(hashed);
  if (Object.keys(fresh).length) {
    writeFileSync(`${m}.${process.pid}`, JSON.stringify({ ...manifest, stamps: { ...stamps, ...fresh } }, null, 1));
    renameSync(`${m}.${process.pid}`, m);
  }
  return true;
}

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
    return inputsUnchanged(m, JSON.parse(readFileSync(m, "utf8")));
  } catch {
    return false;
  }
}

/** Records what a finished build read (written whole, then renamed: a reader never sees half of it). */
export function recordInputs(manifest, files) {
  const all = [...new Set([...files, "package-lock.json"])].filter((f) => !f.split(path.sep).includes("node_modules"));
  const inputs = Object.fromEntries(all.sort().map((f) => [f, sha256(path.join(root, f))]));
  const stamps = stampsOf(all.map((f) => [f, path.join(root, f)]));
  const m = path.join(root, manifest);
  writeFileSync(`${m}.${process.pid}`, JSON.stringify({ inputs, stamps }, null, 1));
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
