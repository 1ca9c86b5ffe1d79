// `npm run build` (run by `npm start`): the server as ES modules in dist/server, bundled by esbuild: main.js, a
// small entry that starts opening the embedded database, and the chunks it then imports (the server in one, the
// code they share in another, the rarely used parts that the server imports on demand in their own). A few bundles
// instead of ~600 modules saves ~250 ms of module resolution at every start. Plain JavaScript so
// that node runs it without a TypeScript loader; type checking is `npm test`'s (tsc --noEmit).
// PGlite stays a package: it finds its WebAssembly and data files beside its own modules.
// Then the merchant portal (portal/, Vite) into dist/portal, which the server serves at /portal, and the client
// package into dist/client, which the server offers for download at /client/ (only when client/ changed), and the
// checkout picker into dist/picker, which the server serves at /picker.js (and its map at /picker-map.js).
// The builders (esbuild, Vite) are imported only when something is to be built: `npm start` with nothing changed
// only hashes the inputs, and loading Vite alone took a third of that check.
import { portalInputs, recordInputs, upToDate } from "./build-inputs.mjs";
import { clientPacked, packClient } from "./client-pack.mjs";
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The server bundle; the test set-up builds one of its own (outfile under .tmp/) for the processes it starts. */
export async function buildServer(outfile = "dist/server/main.js") {
  // The tsc build of earlier versions left a tree here; a stale module beside the bundle would only confuse.
  rmSync(path.resolve(root, path.dirname(outfile)), { recursive: true, force: true });
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: root,
    metafile: true,
    // main.js starts the embedded database's opening and then imports the rest (serve.ts): one chunk beside it,
    // loaded while the database opens, and one that both share. cli.js is the operator CLI (`npm run cli` runs its
    // sources; the tests run this bundle, which starts without compiling TypeScript); it shares chunks with the server.
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
  });
  // The embedded database's thread (server/db/embedded-worker.mjs, and the module it imports) is started by its
  // path, beside the bundle.
  for (const file of WORKER)
    copyFileSync(path.join(root, file), path.resolve(root, path.dirname(outfile), path.basename(file)));
  return [...Object.keys(result.metafile.inputs), ...WORKER];
}

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
