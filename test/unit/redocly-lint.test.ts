// Redocly CLI's recommended rules pass with no error and no warning on the bundle everything reads (rules turned
// off: redocly.yaml); `npm run lint:spec` lints the source tree too.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

it("generated/openapi.json lints clean under Redocly's recommended rules", async () => {
  const cli = path.join(ROOT, "node_modules/@redocly/cli/bin/cli.js");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [cli, "lint", "generated/openapi.json", "--format=json"],
    {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
  const report = JSON.parse(stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
  };
  expect(report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
}, 60_000);
