// The server built as a script (tools/build.mjs, serverScriptOptions) and run through node:vm with V8's code cache
// (server/server-script.ts): stack traces still name the sources' files and lines under --enable-source-maps, as
// they did when the server was a module. test/process/code-cache.test.ts runs the real server with the cache.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, expect, it } from "vitest";
import { serverScriptOptions } from "../../tools/build.mjs";

const dir = path.resolve(".tmp", `server-script-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a script's stack traces name the sources' files and lines when node applies source maps", async () => {
  mkdirSync(dir, { recursive: true });
  const source = path.join(dir, "fixture.ts");
  writeFileSync(source, 'export function boom(): never {\n  throw new Error("boom");\n}\n');
  const script = path.join(dir, "fixture.js");
  await build(serverScriptOptions(source, script));
  writeFileSync(path.join(dir, "fixture.cjs"), "//# sourceMappingURL=fixture.js.map\n");
  const run = () =>
    execFileSync(
      process.execPath,
      [
        "--enable-source-maps",
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { runScript } = await import("./server/server-script.ts");
         try { runScript(process.argv[1]).exports.boom(); } catch (err) { console.log(err.stack); }`,
        script,
      ],
      { encoding: "utf8" },
    );
  expect(run()).toMatch(/at (Object\.)?boom \(.*fixture\.ts:2:9\)/);
  // The stub is what makes node know the map: without it, the script's own place (and the script still runs).
  rmSync(path.join(dir, "fixture.cjs"));
  expect(run()).toMatch(/at (Object\.)?boom \(.*fixture\.cjs:\d+:\d+\)/);
});
