// The built server (dist/server/server-script.js, tools/build.mjs) run as a classic script compiled through node:vm,
// with V8's code cache of it kept beside it: V8 then takes the server's compiled functions from the cache instead
// of parsing and compiling ~4 MB of JavaScript at every start (bench/levers.md section 48). Node 20 has no compile
// cache for modules (module.enableCompileCache came in Node 22), hence a script.
//
// The cache is never needed for correctness. It is used only when its header names this script's exact text (a
// SHA-256 of it), this node's version and architecture, and its data's own SHA-256 matches: a cache of another
// build, another node, or a torn or changed file is ignored, and V8 checks what it is given once more (its version,
// its flags, the source's length) and rejects what does not fit. A start that did not use a cache writes a new one
// once the server listens (what the start compiled is then in it), to a file of its own renamed into place, so a
// reader never sees half of one. A directory that cannot be written to only means no cache.
//
// V8 takes a cache only under the flags it was made under: main.ts holds the embedded database's thread from changing
// V8's flags until the script is compiled (db/embedded-thread.ts, holdV8FlagChanges). Code from a cache made by
// another process cannot import(): the script has none (tools/build.mjs, builtinsRequired).
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const MAGIC = "logistics-api v8 code cache 1";
/** After the server listens: the cache then holds what the start and its first moments compiled. */
const SAVE_DELAY_MS = 1_000;

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** The stub naming the source map of the script `file` (server-script.js: server-script.cjs). */
export const sourceMapStubOf = (file: string) => file.replace(/\.js$/, ".cjs");

/** The cache file of the script `file`. */
export const cacheFileOf = (file: string) => `${file}.v8-cache`;

/** What the cache file must say first, for the script's text `source` run by this node. */
export const keyOf = (source: Buffer) => `${MAGIC} ${sha256(source)} ${process.version} ${process.arch}`;

/** The cache's data, when the file is this script's and whole; else undefined. */
export function readCache(cacheFile: string, key: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  // key, newline, the data's SHA-256 (64 hex), newline, the data
  const keyEnd = file.indexOf(10);
  if (keyEnd < 0 || file.toString("latin1", 0, keyEnd) !== key) return undefined;
  const hashEnd = keyEnd + 1 + 64;
  if (file[hashEnd] !== 10) return undefined;
  const data = file.subarray(hashEnd + 1);
  return data.length > 0 && sha256(data) === file.toString("latin1", keyEnd + 1, hashEnd) ? data : undefined;
}

function writeCache(cacheFile: string, key: string, data: Buffer): void {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${key}\n${sha256(data)}\n`, "latin1"), data]), { mode: 0o644 });
    renameSync(tmp, cacheFile);
  } catch {
    rmSync(tmp, { force: true });
  }
}

export type CacheUse = "used" | "rejected" | "none";

/**
 * Runs the script `file` (a function expression of `require` and the script's URL that returns the exports, as
 * tools/build.mjs wraps the server) in this context, and returns its exports and whether a code cache was used.
 * `compiled` is called once the script is compiled, before it runs.
 * The script is compiled under the name of its source map's stub, a CommonJS file beside it that names the script's
 * map (tools/build.mjs): required when node applies source maps, it makes node know that map under that name, as it
 * knows a module's, and stack traces name our sources' files and lines as before.
 */
export function runScript(
  file: string,
  compiled: () => void = () => {},
): {
  exports: Record<string, unknown>;
  cache: CacheUse;
  saveCache: () => void;
} {
  const sourceMapStub = sourceMapStubOf(file);
  const source = readFileSync(file);
  const key = keyOf(source);
  const cacheFile = cacheFileOf(file);
  const cachedData = readCache(cacheFile, key);
  const require = createRequire(file);
  if (process.sourceMapsEnabled)
    try {
      require(sourceMapStub);
    } catch {
      // No map: stack traces name the script's own lines.
    }
  let script: vm.Script;
  try {
    script = new vm.Script(source.toString("utf8"), {
      filename: sourceMapStub,
      // No import() in it (tools/build.mjs, builtinsRequired): code from a cache made by another process could not.
      cachedData,
    });
  } finally {
    compiled();
  }
  const cache: CacheUse = cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "used";
  const run = script.runInThisContext() as (require: NodeJS.Require, url: string) => Record<string, unknown>;
  const exports = run(require, pathToFileURL(file).href);
  return { exports, cache, saveCache: () => writeCache(cacheFile, key, script.createCachedData()) };
}

/**
 * The built server: runs it, and once it listens keeps a code cache for the next start (a second later, or as the
 * process exits if that is sooner), unless this start used one.
 * `listening` is the server's promise (serve.ts) that settles once it listens; whether the cache was used is in the
 * "listening" line's `startup` (`code_cache`: used, rejected by V8, or none).
 */
export function runServerScript(file: string, compiled?: () => void): void {
  const { exports, cache, saveCache } = runScript(file, compiled);
  (exports.noteStartup as ((name: string, value: string) => void) | undefined)?.("code_cache", cache);
  if (cache === "used") return;
  let saved = false;
  const save = () => {
    if (saved) return;
    saved = true;
    saveCache();
  };
  const listening = exports.listening as Promise<void> | undefined;
  void listening?.then(() => {
    setTimeout(save, SAVE_DELAY_MS).unref();
    // A server stopped sooner (a benchmark's starts, a test's) keeps one as it exits.
    process.once("exit", save);
  });
}
