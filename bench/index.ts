// `npm run bench [-- SUITE...] [OPTIONS]`: the one entry point of the benchmarks. Without a suite it runs
// start, inbound, instances, shipping, webhooks, scale and picker in turn, then profiles the inbound cases, and writes docs/benchmarks.md from their results;
// OPTIONS go to each suite (inbound: --case, --target, --profile).
// Each suite runs in a process of its own, so one's servers and timers never disturb the next.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describeMachine, publish } from "./publish.ts";
import { RESULTS_DIR, type SuiteResult } from "./results.ts";

const SUITES: Record<string, { file: string; what: string }> = {
  inbound: { file: "suites/inbound.ts", what: "inbound shipments: baseline, Prism, PostgreSQL, PGlite" },
  instances: {
    file: "suites/instances.ts",
    what: "GET shipment on PostgreSQL: one instance against two on the same database",
  },
  shipping: {
    file: "suites/shipping.ts",
    what: "GET /shipping_options on 50,000 pickup points; Shopify's callback at 100 req/s",
  },
  webhooks: {
    file: "suites/webhooks.ts",
    what: "webhook deliveries a second and commit-to-receipt latency, 1 to 100 endpoints",
  },
  start: { file: "suites/start.ts", what: "start to ready on an existing database, and memory" },
  scale: {
    file: "suites/scale.ts",
    what: "how cost grows: 10^4-10^6 shipments, 5,000-500,000 pickup points (PostgreSQL)",
  },
  neighbours: {
    file: "suites/neighbours.ts",
    what: "other merchants' requests under five floods (argument: flood names; see docs/benchmarks.md)",
  },
  picker: { file: "suites/picker.ts", what: "the checkout picker's script: its size, raw and compressed" },
  "body-checks": { file: "micro/body-checks.ts", what: "micro-cost of the JSON body checks" },
  floor: {
    file: "micro/floor.ts",
    what: "GET shipment's CPU floor: bare app, the one query alone, the server (PostgreSQL)",
  },
  edge: {
    file: "micro/edge.ts",
    what: "GET shipment's edge step by step: the server cut after each step of its pipeline (PostgreSQL)",
  },
  "pglite-budget": {
    file: "micro/pglite-budget.ts",
    what: "GET shipment's statement alone on the embedded database: the req/s bound of its one session",
  },
  "statement-shapes": {
    file: "micro/statement-shapes.ts",
    what: "GET shipment's statement in several SQL shapes: the embedded session's CPU for each",
  },
  "embedded-growth": {
    file: "micro/embedded-growth.ts",
    what: "GET shipment on the embedded database while creates grow it (argument: another build to compare)",
  },
  "get-path": { file: "micro/get-path.ts", what: "the GET path in process, against another tree (argument: its path)" },
};
const DEFAULT = ["start", "inbound", "instances", "shipping", "webhooks", "scale", "picker"];

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(
    `npm run bench [-- SUITE...] [OPTIONS]\n\n${Object.entries(SUITES)
      .map(([n, s]) => `  ${n.padEnd(12)} ${s.what}`)
      .join("\n")}\n\nWithout a suite: ${DEFAULT.join(", ")}.`,
  );
  process.exit(0);
}
const chosen: string[] = [];
while (args.length && !args[0]!.startsWith("-") && SUITES[args[0]!]) chosen.push(args.shift()!);
if (args.length && !args[0]!.startsWith("-") && chosen.length === 0 && !SUITES[args[0]!]) {
  console.error(`unknown suite "${args[0]}"; one of ${Object.keys(SUITES).join(", ")}`);
  process.exit(2);
}
let failed = 0;
const startedAt = new Date();
// Results of an earlier run must not pass for this one's.
rmSync(RESULTS_DIR, { recursive: true, force: true });
for (const name of chosen.length ? chosen : DEFAULT) {
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, SUITES[name]!.file), ...args],
    { stdio: "inherit" },
  );
  if (r.status !== 0) {
    failed++;
    console.error(`bench ${name}: ${r.signal ? `signal ${r.signal}` : `exit code ${r.status}`}`);
  }
}
// A full run ends with a CPU-profiled pass of each case short of its goal (profiling slows a server a little,
// so the measured figures come from the unprofiled runs above).
const PROFILED = ["get-shipment", "create-shipment"];
if (chosen.length === 0) {
  for (const c of PROFILED) {
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join(import.meta.dirname, SUITES.inbound!.file),
        "--case",
        c,
        "--target",
        "postgres,pglite",
        "--profile",
        ...args,
      ],
      {
        stdio: "inherit",
        env: { ...process.env, BENCH_RESULTS_AS: `profile-${c}`, BENCH_ROUNDS: "1" },
      },
    );
    if (r.status !== 0) console.error(`bench profile of ${c}: exit code ${r.status}`);
  }
}
if (chosen.length === 0) {
  const results: SuiteResult[] = [];
  const missing: string[] = [];
  for (const name of DEFAULT) {
    const file = path.join(RESULTS_DIR, `${name}.json`);
    if (existsSync(file)) results.push(JSON.parse(readFileSync(file, "utf8")) as SuiteResult);
    else missing.push(name);
  }
  const profiled = PROFILED.map((c) => path.join(RESULTS_DIR, `profile-${c}.json`))
    .filter((f) => existsSync(f))
    .map((f) => JSON.parse(readFileSync(f, "utf8")) as SuiteResult);
  const { md } = publish(
    path.join(import.meta.dirname, "..", "docs"),
    results,
    missing,
    profiled,
    describeMachine(process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test"),
    startedAt,
  );
  console.log(`\n${md}\nwritten: docs/benchmarks.md and docs/benchmarks.json`);
} else {
  console.log(
    "\ndocs/benchmarks.md is left as it was: `npm run bench` without a suite name rewrites it from one full run.",
  );
}
process.exit(failed ? 1 : 0);
