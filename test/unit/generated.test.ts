import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

it("generated/ is exactly what the spec produces today (run `npm run generate`)", () => {
  const run = spawnSync(
    process.execPath,
    [
      "node_modules/openapi-typescript/bin/cli.js",
      "spec/openapi.yaml",
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
});
