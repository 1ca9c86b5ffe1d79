// Command line and environment of `npm run bench`.
import { parseArgs } from "node:util";
import { CASES, TARGETS, type BenchCase, type TargetName } from "./cases.ts";

export interface BenchOptions {
  cases: BenchCase[];
  targets: TargetName[];
  seconds: number;
  warmupSeconds: number;
  connections: number;
  rounds: number;
  profile: boolean;
  /** Where the servers' stdout (their JSON logs) goes: a pipe this process drains, or /dev/null. */
  serverStdout: "pipe" | "null";
  databaseUrl: string;
}

export const USAGE = `npm run bench [-- --case NAME[,NAME]] [--target NAME[,NAME]] [--profile]
  cases:   ${CASES.map((c) => c.name).join(", ")}
  targets: ${TARGETS.join(", ")}
  env: BENCH_SECONDS (5) BENCH_WARMUP_SECONDS (1) BENCH_CONNECTIONS (50) BENCH_ROUNDS (5) BENCH_PROFILE=1
       BENCH_STDOUT=pipe|null (pipe: server logs drained by the benchmark, as a terminal would read them)
       DATABASE_URL (postgres://postgres@127.0.0.1:5432/test; a scratch database is created on that server)
       BENCH_SERVER_<VAR>=value sets the server's <VAR> (otherwise every server setting is its default)`;

function positive(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  return n;
}

function pick<T extends string>(what: string, given: string[] | undefined, all: readonly T[]): T[] {
  if (!given?.length) return [...all];
  const names = given
    .flatMap((g) => g.split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !all.includes(n as T));
  if (unknown.length) throw new Error(`unknown ${what}: ${unknown.join(", ")} (choose from ${all.join(", ")})`);
  return all.filter((a) => names.includes(a));
}

/** Prints the usage and exits on `--help`, or with the problem on a bad option. */
export function parseOptions(argv = process.argv.slice(2)): BenchOptions {
  try {
    return parse(argv);
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    process.exit(2);
  }
}

function parse(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      case: { type: "string", multiple: true },
      target: { type: "string", multiple: true },
      profile: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  // A case measured only when named is not in a run without --case (a full `npm run bench` keeps its time).
  const caseNames = values.case?.length
    ? pick(
        "case",
        values.case,
        CASES.map((c) => c.name),
      )
    : CASES.filter((c) => !c.onlyWhenNamed).map((c) => c.name);
  const stdout = process.env.BENCH_STDOUT || "pipe";
  if (stdout !== "pipe" && stdout !== "null") throw new Error(`BENCH_STDOUT must be pipe or null, got "${stdout}"`);
  return {
    cases: CASES.filter((c) => caseNames.includes(c.name)),
    targets: pick("target", values.target, TARGETS),
    seconds: positive("BENCH_SECONDS", 5),
    warmupSeconds: positive("BENCH_WARMUP_SECONDS", 1, 0),
    connections: positive("BENCH_CONNECTIONS", 50),
    // The targets are medians of at least 5 rounds.
    rounds: positive("BENCH_ROUNDS", 5),
    profile: values.profile === true || ["1", "true"].includes(process.env.BENCH_PROFILE ?? ""),
    serverStdout: stdout,
    databaseUrl: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test",
  };
}
