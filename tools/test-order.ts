// Tests that lean on each other (issue 55 item 3): a test that reads what an earlier test of its file left behind
// checks less, or nothing, when it runs alone or in another order. `npm run test:order -- <files>` runs each test of
// each file alone (`-t` naming it, a file run of its own) and then the files together with their files and tests
// in a shuffled order (`--sequence.shuffle`, the seed printed to replay), on the project given by --project
// (default pglite); .ci/run calls it. Exit code 1 when any run fails or a test named alone did not run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    project: { type: "string", default: "pglite" },
    seed: { type: "string" },
    "shuffled-only": { type: "boolean", default: false },
  },
});
if (files.length === 0) {
  console.error("usage: npm run test:order -- [--project pglite] [--seed N] [--shuffled-only] <test files>");
  process.exit(2);
}
const project = values.project;
const scratch = mkdtempSync(path.join(tmpdir(), "test-order-"));
const vitest = (args: string[]) =>
  spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", ...args], { encoding: "utf8", stdio: "pipe" });

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

/** What failed in a run: files that failed outside a test (a hook, an import) and failed tests, with messages. */
const failedIn = (report: Report) =>
  report.testResults.flatMap((file) => [
    ...(file.status === "failed" && file.message ? [`${file.name}: ${file.message}`] : []),
    ...file.assertionResults
      .filter((a) => a.status === "failed")
      .map((a) => `${file.name} > ${a.fullName}: ${a.failureMessages.join("\n").slice(0, 2000)}`),
  ]);
/** One vitest run with a JSON report; its counts, or undefined when it wrote none. */
function runReported(args: string[]): { report?: Report; output: string; status: number | null } {
  const out = path.join(scratch, "report.json");
  rmSync(out, { force: true });
  const r = vitest(["run", "--project", project, "--reporter=json", `--outputFile=${out}`, ...args]);
  let report: Report | undefined;
  try {
    report = JSON.parse(readFileSync(out, "utf8")) as Report;
  } catch {
    report = undefined;
  }
  return { report, output: r.stdout + r.stderr, status: r.status };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const failures: string[] = [];

if (!values["shuffled-only"]) {
  for (const file of files) {
    const listed = vitest(["list", "--json", "--project", project, file]);
    if (listed.status !== 0) {
      failures.push(`${file}: could not list its tests\n${listed.stderr}`);
      continue;
    }
    const tests = (JSON.parse(listed.stdout) as { name: string }[]).map((t) => t.name);
    for (const name of tests) {
      // vitest matches -t against the names of the describe blocks and the test joined by spaces.
      const pattern = `^${name.split(" > ").map(escape).join(" ")}$`;
      const started = performance.now();
      const { report, output, status } = runReported([file, "-t", pattern]);
      const ms = Math.round(performance.now() - started);
      // A test.each name can stand for several cases; each must run, and nothing else.
      const ok = status === 0 && report !== undefined && report.numFailedTests === 0 && report.numPassedTests >= 1;
      console.log(`${ok ? "pass" : "FAIL"} alone (${ms} ms): ${path.basename(file)} > ${name}`);
      if (!ok) failures.push(`${file} > ${name} alone:\n${report ? failedIn(report).join("\n") : output.slice(-4000)}`);
    }
  }
}

const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
const shuffled = runReported(["--sequence.shuffle", `--sequence.seed=${seed}`, ...files]);
const ok = shuffled.status === 0 && shuffled.report !== undefined && shuffled.report.numFailedTests === 0;
console.log(
  `${ok ? "pass" : "FAIL"} shuffled (seed ${seed}; replay: npm run test:order -- --shuffled-only --seed ${seed} ${files.join(" ")}): ` +
    `${shuffled.report?.numPassedTests ?? 0} passed, ${shuffled.report?.numFailedTests ?? "?"} failed`,
);
if (!ok)
  failures.push(
    `shuffled run, seed ${seed}:\n${shuffled.report ? failedIn(shuffled.report).join("\n") : shuffled.output.slice(-6000)}`,
  );

rmSync(scratch, { recursive: true, force: true });
for (const f of failures) console.error(`\n${f}`);
process.exit(failures.length ? 1 : 0);
