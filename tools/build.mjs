// `npm run build` (run by `npm start`): the server in dist/server, bundled by esbuild: main.js, a small entry (an ES
// module) that starts opening the embedded database and then runs the server, server-script.js, one classic script
// that main.js compiles with V8's code cache of it (server/server-script.ts); and the operator CLI, cli.js, with its
// chunks. A few bundles instead of ~600 modules saves ~250 ms of module resolution at every start. Plain JavaScript so
// that node runs it without a TypeScript loader; type checking is `npm test`'s (tsc --noEmit).
// PGlite stays a package: it finds its WebAssembly and data files beside its own modules.
// Then the merchant portal (portal/, Vite) into dist/portal, which the server serves at /portal, and the client
// package into dist/client, which the server offers for download at /client/ (only when client/ changed), and the
// checkout picker into dist/picker, which the server serves at /picker.js (and its map at /picker-map.js).
// The builders (esbuild, Vite) are imported only when something is to be built: `npm start` with nothing changed
// only hashes the inputs, and loading Vite alone took a third of that check.
import { portalInputs, recordInputs, upToDate } from "./build-inputs.mjs";
import { clientPacked, packClient } from "./client-pack.mjs";
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The server bundle; the test set-up builds one of its own (outfile under .tmp/) for the processes it starts. */
export async function buildServer(outfile = "dist/server/main.js") {
  // The tsc build of earlier versions left a tree here; a stale module beside the bundle would only confuse.
  rmSync(path.resolve(root, path.dirname(outfile)), { recursive: true, force: true });
  const { build } = await import("esbuild");
  const outdir = path.resolve(root, path.dirname(outfile));
  const result = await build({
    absWorkingDir: root,
    metafile: true,
    // main.js starts the embedded database's opening and then runs the server's script (below). cli.js is the
    // operator CLI (`npm run cli` runs its sources; the tests run this bundle, which starts without compiling
    // TypeScript); it shares chunks with main.js.
    entryPoints: ["server/main.ts", "server/cli.ts"],
    outdir: path.dirname(outfile),
    entryNames: "[name]",
    splitting: true,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    // Packages shipped as UMD (jsonc-parser) resolve their relative requires only in their ES module form.
    mainFields: ["module", "main"],
    external: ["@electric-sql/pglite", "pg-native"],
    // CommonJS dependencies bundled into an ES module still call require() for node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    // Stack traces name our sources' files and lines; the maps leave the sources' text out: node reads the maps of
    // every chunk at start with --enable-source-maps, and the text tripled their size (7.2 MB for the server's chunk,
    // against 2.4 MB: ~45 ms to ready and ~20 MB of RSS: bench/levers.md section 20).
    // Whitespace only (names and syntax as written: the validator's middlewares are told apart by their functions'
    // names): 4.6 -> 3.1 MB to parse at every start, and node's line index of each chunk for the maps has a few
    // hundred lines to count instead of ~100,000 (bench/levers.md section 40).
    minifyWhitespace: true,
    sourcemap: true,
    sourcesContent: false,
    logLevel: "warning",
    plugins: [pgOnNode],
    // main.js runs the server as the script built below (server/server-script.ts), not as the module serve.ts.
    define: { SERVER_SCRIPT: JSON.stringify(SERVER_SCRIPT) },
  });
  // The server (serve.ts and all it imports) as one classic script, a function expression of `require` and the
  // script's URL (its import.meta.url) returning serve.ts's exports, which server/server-script.ts compiles through
  // node:vm with V8's code cache of it: a module cannot have one on Node 20.
  const script = await build(serverScriptOptions("server/serve.ts", path.join(outdir, SERVER_SCRIPT)));
  const left = dynamicImportsLeft(script.metafile);
  if (left.length) throw new Error(`import() left in ${SERVER_SCRIPT}: ${left.map((i) => i.path).join(", ")}`);
  // Required by server-script.ts when node applies source maps: node then knows the script's map under this name,
  // the name the script is compiled under, and stack traces name our sources' files and lines as before.
  writeFileSync(path.join(outdir, SOURCE_MAP_STUB), `//# sourceMappingURL=${SERVER_SCRIPT}.map\n`);
  // The embedded database's thread (server/db/embedded-worker.mjs, and the module it imports) is started by its
  // path, beside the bundle.
  for (const file of WORKER) copyFileSync(path.join(root, file), path.join(outdir, path.basename(file)));
  const inputs = [...Object.keys(result.metafile.inputs), ...Object.keys(script.metafile.inputs)];
  // Files only: not esbuild's own inputs (<define:...>, builtin:http).
  return [...new Set(inputs.filter((name) => existsSync(path.join(root, name)))), ...WORKER];
}

/**
 * esbuild's options for the server as a script (server/server-script.ts runs it): `entry`'s exports returned by a
 * function expression of `require` and the script's URL (its import.meta.url).
 */
export const serverScriptOptions = (entry, outfile) => ({
  absWorkingDir: root,
  metafile: true,
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  // An IIFE, not CommonJS: the server's modules are ES modules, and some packages' ES forms check for a CommonJS
  // `module` (@jsdevtools/ono) that must not be there; strict, as ES modules are.
  format: "iife",
  globalName: "server",
  mainFields: ["module", "main"],
  external: ["@electric-sql/pglite", "pg-native"],
  define: { "import.meta.url": "__script_url" },
  banner: { js: '(function (require, __script_url) {"use strict";' },
  footer: { js: "return server})" },
  minifyWhitespace: true,
  sourcemap: true,
  sourcesContent: false,
  logLevel: "warning",
  plugins: [pgOnNode, builtinsRequired],
});

/**
 * A script compiled with a code cache made by another process loses what node needs for an import() in it
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING: OpenTelemetry's exporter imports node:http so, and sent nothing). Every
 * package is in the script; what is left are node's own modules, which the script requires instead, as the
 * namespace an import() would give. buildServer fails when an import() is left in the script.
 */
const builtinsRequired = {
  name: "builtins-required",
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === "dynamic-import" && isBuiltin(args.path) ? { path: args.path, namespace: "builtin" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/** The import()s left in a script build's output (none may be: builtinsRequired). */
const dynamicImportsLeft = (metafile) =>
  Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === "dynamic-import"));

const SERVER_SCRIPT = "server-script.js";
const SOURCE_MAP_STUB = "server-script.cjs"; // server-script.ts: sourceMapStubOf

const WORKER = ["server/db/embedded-worker.mjs", "server/db/embedded-flush.mjs"];

/**
 * node-postgres asks at load whether it runs on Cloudflare Workers by constructing a `Response`, and on Node 20 the
 * first `Response` loads node's own undici, fetch and all: 45-125 ms of every start of the server, which never uses
 * them (bench/levers.md, "Start to ready, again"). The bundle's pg takes node's sockets without asking, as it does on
 * node anyway. A pg whose stream.js no longer reads this way fails the build, so the change is never lost unnoticed.
 */
export const pgOnNode = {
  name: "pg-on-node",
  setup(build) {
    build.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, ({ path: file }) => {
      const source = readFileSync(file, "utf8");
      const asked = "if (isCloudflareRuntime()) {";
      if (!source.includes(asked)) throw new Error(`${file}: no "${asked}" to replace; see tools/build.mjs pgOnNode`);
      return { contents: source.replace(asked, "if (false) {"), loader: "js" };
    });
  },
};

// `--if-changed` (npm start): each part is built only when a file it was built from changed since.
const SERVER = { manifest: "dist/server/.inputs.json", output: "dist/server/main.js" };
const PORTAL = { manifest: "dist/.portal-inputs.json", output: "dist/portal/index.html" };
const PICKER = { manifest: "dist/.picker-inputs.json", output: "dist/picker/picker.js" };

/** Whether `--if-changed` would build nothing (tools/start.mjs asks before it runs the server). */
export const everythingBuilt = () =>
  [SERVER, PORTAL, PICKER].every((part) => upToDate(part.manifest, part.output)) && clientPacked();

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ifChanged = process.argv.includes("--if-changed");
  if (!ifChanged || !upToDate(SERVER.manifest, SERVER.output)) {
    const inputs = await buildServer();
    recordInputs(SERVER.manifest, [...inputs, "tools/build.mjs", "package.json"]);
  }
  if (!ifChanged || !upToDate(PORTAL.manifest, PORTAL.output)) {
    const { buildPortal } = await import("./build-portal.mjs");
    await buildPortal();
    recordInputs(PORTAL.manifest, portalInputs());
  }
  if (!ifChanged || !upToDate(PICKER.manifest, PICKER.output)) {
    const { buildPicker } = await import("./build-picker.mjs");
    const inputs = await buildPicker();
    recordInputs(PICKER.manifest, [...inputs, "tools/build-picker.mjs", "package.json"]);
  }
  packClient();
}
