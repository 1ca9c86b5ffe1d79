// Tests that lean on each other (issue 55 item 3): a test that reads what an earlier test of its file left behind
// checks less, or nothing, when it runs alone or in another order. `npm run test:order -- <files>` runs each test of
// each file alone and then the files together with their files and tests in a shuffled order (`--sequence.shuffle`,
// the seed printed to replay), on the project given by --project (default pglite); .ci/run calls it. Exit code 1
// when any run fails or a test named alone did not run.
//
// The lone runs share one vitest instance: its start and the project's global set-up (the server bundle, PGlite's
// migrated template) were ~15 s of the ~18 s that each lone run cost as a vitest process of its own. Each run is
// still a file run of its own in a new worker process (isolate), with only that test selected by its id: the file's
// hooks, its database and every module start afresh, as in a process of its own.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TestCase, TestModule } from "vitest/node";
import { createVitest } from "vitest/node";

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
const failures: string[] = [];

/** Each error of a module or of its failed tests, with its message. */
const failedIn = (module: TestModule): string[] => [
  ...module.errors().map((e) => `${module.moduleId}: ${e.message}`),
  ...[...module.children.allTests()]
    .filter((t) => t.result().state === "failed")
    .map((t) => `${module.moduleId} > ${t.fullName}: ${(t.result().errors ?? []).map((e) => e.message).join("\n")}`),
];

if (!values["shuffled-only"]) {
  const vitest = await createVitest("test", {
    watch: false,
    project: [project],
    // A new worker per run: nothing of one run's modules is left to the next.
    isolate: true,
    maxWorkers: 1,
    reporters: [{}],
  });
  try {
    const p = vitest.getProjectByName(project);
    for (const file of files) {
      const moduleId = path.resolve(file);
      const collected = await vitest.collectTests([p.createSpecification(moduleId)]);
      // The instance keeps earlier files' modules: this file's is found by its path.
      const module = collected.testModules.find((m) => m.moduleId === moduleId);
      const tests: TestCase[] = module ? [...module.children.allTests()] : [];
      if (!module || module.errors().length > 0 || tests.length === 0) {
        failures.push(`${file}: could not list its tests\n${module ? failedIn(module).join("\n") : "not found"}`);
        continue;
      }
      for (const test of tests) {
        const started = performance.now();
        const run = await vitest.runTestSpecifications([p.createSpecification(moduleId, { testIds: [test.id] })]);
        const ms = Math.round(performance.now() - started);
        const ran = run.testModules.find((m) => m.moduleId === moduleId);
        const states = ran ? [...ran.children.allTests()].map((t) => [t.id, t.result().state] as const) : [];
        // Only the named test ran (every other one skipped), and it passed.
        const ok =
          ran !== undefined &&
          run.unhandledErrors.length === 0 &&
          ran.errors().length === 0 &&
          states.every(([id, state]) => (id === test.id ? state === "passed" : state === "skipped"));
        console.log(`${ok ? "pass" : "FAIL"} alone (${ms} ms): ${path.basename(file)} > ${test.fullName}`);
        if (!ok)
          failures.push(
            `${file} > ${test.fullName} alone:\n${[
              ...(ran ? failedIn(ran) : ["it did not run"]),
              ...run.unhandledErrors.map(String),
              ...states.filter(([id, s]) => id !== test.id && s !== "skipped").map(([id, s]) => `${id} also ${s}`),
            ].join("\n")}`,
          );
      }
    }
  } finally {
    await vitest.close();
  }
}

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

/** The shuffled run: one vitest process over the files, its JSON report read back. */
function shuffledRun(seed: string): { ok: boolean; summary: string; failed: string } {
  const scratch = mkdtempSync(path.join(tmpdir(), "test-order-"));
  const out = path.join(scratch, "report.json");
  try {
    const r = spawnSync(
      process.execPath,
      [
        "node_modules/vitest/vitest.mjs",
        "run",
        "--project",
        project,
        "--reporter=json",
        `--outputFile=${out}`,
        "--sequence.shuffle",
        `--sequence.seed=${seed}`,
        ...files,
      ],
      { encoding: "utf8", stdio: "pipe" },
    );
    let report: Report | undefined;
    try {
      report = JSON.parse(readFileSync(out, "utf8")) as Report;
    } catch {
      report = undefined;
    }
    const ok = r.status === 0 && report !== undefined && report.numFailedTests === 0;
    const failed = report
      ? report.testResults
          .flatMap((file) => [
            ...(file.status === "failed" && file.message ? [`${file.name}: ${file.message}`] : []),
            ...file.assertionResults
              .filter((a) => a.status === "failed")
              .map((a) => `${file.name} > ${a.fullName}: ${a.failureMessages.join("\n").slice(0, 2000)}`),
          ])
          .join("\n")
      : (r.stdout + r.stderr).slice(-6000);
    return {
      ok,
      summary: `${report?.numPassedTests ?? 0} passed, ${report?.numFailedTests ?? "?"} failed`,
      failed,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
const shuffled = shuffledRun(seed);
console.log(
  `${shuffled.ok ? "pass" : "FAIL"} shuffled (seed ${seed}; replay: npm run test:order -- --shuffled-only --seed ${seed} ${files.join(" ")}): ${shuffled.summary}`,
);
if (!shuffled.ok) failures.push(`shuffled run, seed ${seed}:\n${shuffled.failed}`);

for (const f of failures) console.error(`\n${f}`);
process.exit(failures.length ? 1 : 0);
