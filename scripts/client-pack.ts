// npm run client:pack: builds client/ (and the generated contract types it uses) to JavaScript with
// declarations in a staging folder, packs it with npm, and prints the tarball's path as the last line.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fromRoot } from "../server/shared/paths.ts";

const stage = fromRoot(".tmp/client-package");
const out = fromRoot(".tmp");
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

const tsc = fromRoot("node_modules/typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", fromRoot("client/tsconfig.json"), "--outDir", path.join(stage, "dist")], { stdio: "inherit" });
for (const f of ["package.json", "README.md", "CHANGELOG.md"]) cpSync(fromRoot(`client/${f}`), path.join(stage, f));

const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", out], { cwd: stage, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })) as { filename: string }[];
const { version } = JSON.parse(readFileSync(path.join(stage, "package.json"), "utf8")) as { version: string };
console.log(`packed @logistics-api/client ${version}`);
console.log(path.join(out, packed[0]!.filename));
