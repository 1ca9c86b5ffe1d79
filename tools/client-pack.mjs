// The merchant client package: client/ (and the generated contract types it uses) built to JavaScript with
// declarations and packed with npm into dist/client/<npm's name>-<version>.tgz, a path that stays. `npm run build`
// (so `npm start`) packs it, and the server offers that file for download at /client/<same name>;
// `npm run client:pack` does the same and prints the tarball's path as the last line.
// Plain JavaScript so that build.mjs imports it without a TypeScript loader.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inputsUnchanged, stampsOf } from "./build-inputs.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const PACKAGE_FILES = ["package.json", "README.md", "CHANGELOG.md"];
// What the last build read, with each file's hash: compiling costs seconds, and `npm start` builds at every start.
const MANIFEST = ".inputs.json";

const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Where the package's tarball goes: npm's own rule for its name, @scope/name -> scope-name-version.tgz. */
function tarballOf(outDir) {
  const { name, version } = JSON.parse(readFileSync(path.join(root, "client/package.json"), "utf8"));
  return { tarball: path.join(outDir, `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`), version };
}

/** Whether the tarball is there and no file it was built from changed (what packClient would leave as it is). */
export function clientPacked(outDir = path.join(root, "dist/client")) {
  return upToDate(outDir, tarballOf(outDir).tarball);
}

/** The tarball's path, packed again only when a file it was built from changed. */
export function packClient(outDir = path.join(root, "dist/client")) {
  const { tarball, version } = tarballOf(outDir);
  if (upToDate(outDir, tarball)) return { tarball, version, packed: false };
  const file = path.basename(tarball);

  // A folder of its own per run beside the result: two runs at once (parallel test files) never share files,
  // and the finished tarball is renamed into place, so a reader never sees half of one.
  const stage = path.join(outDir, `.stage-${Date.now()}-${process.pid}`);
  mkdirSync(stage, { recursive: true });
  try {
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    const config = path.join(root, "client/tsconfig.json");
    let listed;
    try {
      listed = execFileSync(
        process.execPath,
        [tsc, "-p", config, "--outDir", path.join(stage, "dist"), "--listFiles"],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
      );
    } catch (err) {
      process.stderr.write(err.stdout ?? "");
      throw new Error("compiling client/ failed");
    }
    for (const f of PACKAGE_FILES) cpSync(path.join(root, "client", f), path.join(stage, f));
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--pack-destination", stage], {
        cwd: stage,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }),
    );
    if (packed[0].filename !== file) throw new Error(`npm named the tarball ${packed[0].filename}, expected ${file}`);
    renameSync(path.join(stage, file), tarball);
    const inputs = [
      config,
      path.join(root, "node_modules/typescript/package.json"), // the compiler's version
      ...PACKAGE_FILES.map((f) => path.join(root, "client", f)),
      ...listed.split("\n").filter((l) => l.trim()),
    ];
    const manifest = {
      file,
      inputs: Object.fromEntries(inputs.map((f) => [path.relative(root, f), sha256(f)])),
      stamps: stampsOf(inputs.map((f) => [path.relative(root, f), f])),
    };
    writeFileSync(path.join(stage, MANIFEST), JSON.stringify(manifest, null, 1));
    renameSync(path.join(stage, MANIFEST), path.join(outDir, MANIFEST));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  // The server offers only the current version: an older tarball left here would only confuse.
  for (const old of readdirSync(outDir)) if (old.endsWith(".tgz") && old !== file) rmSync(path.join(outDir, old));
  return { tarball, version, packed: true };
}

function upToDate(outDir, tarball) {
  const manifestPath = path.join(outDir, MANIFEST);
  if (!existsSync(tarball) || !existsSync(manifestPath)) return false;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (manifest.file !== path.basename(tarball)) return false;
    return inputsUnchanged(manifestPath, manifest);
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { tarball, version, packed } = packClient();
  console.log(`${packed ? "packed" : "up to date:"} @logistics-api/client ${version}`);
  console.log(tarball);
}
