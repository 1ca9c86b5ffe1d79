// npm run client:pack: builds client/ (and the generated contract types it uses) to JavaScript with
// declarations in a staging folder, packs it with npm, and prints the tarball's path as the last line.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fromRoot } from "../server/shared/paths.ts";

// A folder of its own per run: two runs at once (the test files run in parallel) never share files.
const run = `${Date.now()}-${process.pid}`;
const stage = fromRoot(`.tmp/client-package/stage-${run}`);
const out = fromRoot(`.tmp/client-package/${run}`);
mkdirSync(stage, { recursive: true });
mkdirSync(out, { recursive: true });

const tsc = fromRoot("node_modules/typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", fromRoot("client/tsconfig.json"), "--outDir", path.join(stage, "dist")], {
  stdio: "inherit",
});
for (const f of ["package.json", "README.md", "CHANGELOG.md"]) cpSync(fromRoot(`client/${f}`), path.join(stage, f));

const packed = JSON.parse(
  execFileSync("npm", ["pack", "--json", "--pack-destination", out], {
    cwd: stage,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }),
) as { filename: string }[];
const { version } = JSON.parse(readFileSync(path.join(stage, "package.json"), "utf8")) as { version: string };
rmSync(stage, { recursive: true, force: true });
console.log(`packed @logistics-api/client ${version}`);
console.log(path.join(out, packed[0]!.filename));
