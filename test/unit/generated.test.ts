import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { BASE_PATH_MODULE, basePathModule, BUNDLE, bundleSpec } from "../../tools/spec-bundle.ts";

it("generated/openapi.json is the bundle of the spec tree today (run `npm run generate`)", () => {
  expect(bundleSpec() === readFileSync(BUNDLE, "utf8"), "run npm run generate").toBe(true);
}, 60_000);

it("generated/base-path.ts is the spec's server path (run `npm run generate`)", () => {
  expect(readFileSync(BASE_PATH_MODULE, "utf8")).toBe(basePathModule(readFileSync(BUNDLE, "utf8")));
});

it("generated/api.ts is exactly what the bundle produces today (run `npm run generate`)", () => {
  const run = spawnSync(
    process.execPath,
    [
      "node_modules/openapi-typescript/bin/cli.js",
      BUNDLE,
      "-o",
      "generated/api.ts",
      "--root-types",
      "--root-types-no-schema-prefix",
      "--root-types-keep-casing",
      "--check",
    ],
    { encoding: "utf8" },
  );
  expect(run.stderr + run.stdout).not.toMatch(/error|out of date/i);
  expect(run.status).toBe(0);
}, 60_000);
