// What each suite hands to the report: its figures in one shape, written to .tmp/bench-results/<suite>.json.
// `npm run bench` (all suites) then writes docs/benchmarks.md and docs/benchmarks.json from those files.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CpuPerRequest } from "./cpu.ts";
import { fileURLToPath } from "node:url";

export const RESULTS_DIR = fileURLToPath(new URL("../.tmp/bench-results", import.meta.url));

export interface ResultRow {
  /** The figure's name in the table, e.g. "GET shipment" or "GET shipment, 10^6 shipments". */
  case: string;
  /** What served it: postgres, pglite, prism, baseline. */
  target: string;
  rps?: number;
  p50?: number;
  p99?: number;
  /** Non-2xx answers and connection errors during the measured runs. */
  errors: number;
  /** req/s over the bare Express app's in the same round (median over rounds). */
  ratio?: number | null;
  /** req/s over Prism's mock in the same round. */
  ratioToPrism?: number | null;
  /** req/s over node's own http serving the same bytes in the same round. */
  ratioToNode?: number | null;
  /** req/s over the Fastify + pg route doing the same read in the same round. */
  ratioToFastify?: number | null;
  /** A figure that is not a request rate: start-up time, RSS, deliveries a second. */
  value?: number;
  unit?: string;
  /** The goal this figure is held to, as written in the issue (e.g. ">= 0.45x"), and whether it is met. */
  goal?: string;
  met?: boolean;
  /** The goal's ratio to the bare app, when it has one (0.45 for ">= 0.45x"). */
  ratioGoal?: number;
  note?: string;
  /** CPU per request by process (median over rounds). */
  cpu?: CpuPerRequest;
  /** The server's and PostgreSQL's CPU per request over the bare app's server CPU per request, same run. */
  cpuRatio?: { server?: number; database?: number };
  /** The server's CPU per request over the Fastify + pg route's, same rounds (median of the rounds' ratios). */
  cpuToFastify?: number | null;
}

export interface SuiteResult {
  suite: string;
  title: string;
  startedAt: string;
  seconds: number;
  rows: ResultRow[];
  notes: string[];
  problems: string[];
  /** CPU profiles of the servers during the measured runs, summarised (a profiled run only). */
  profiles?: {
    target: string;
    ms: number;
    groups: { name: string; pct: number }[];
    functions: { name: string; group: string; pct: number }[];
  }[];
}

export function writeResults(result: SuiteResult): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${result.suite}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2));
  return file;
}

/** One bound of a goal: [">=" | "<=", bound, how it prints after the number, the measured value]. */
export type Bound = [">=" | "<=", number, string, number | null | undefined];

/** A goal from its bounds: the text the report shows (">= 0.45x, <= 25 ms p99") and whether every bound holds. */
export function goal(...bounds: Bound[]): { goal: string; met: boolean; ratioGoal?: number } {
  const ratio = bounds.find(([op, , suffix]) => op === ">=" && suffix === "x");
  return {
    ...(ratio && { ratioGoal: ratio[1] }),
    goal: bounds.map(([op, bound, suffix]) => `${op} ${bound.toLocaleString("en")}${suffix}`).join(", "),
    met: bounds.every(
      ([op, bound, , value]) =>
        value !== null &&
        value !== undefined &&
        !Number.isNaN(value) &&
        (op === ">=" ? value >= bound : value <= bound),
    ),
  };
}
