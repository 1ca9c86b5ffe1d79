// docs/benchmarks.md and docs/benchmarks.json from one `npm run bench` run: every suite's figures, the
// issue's goals with whether each is met, the date and the machine. Figures in notes come from this file.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import path from "node:path";
import type { ResultRow, SuiteResult } from "./results.ts";
import { neighboursSection } from "./suites/neighbours/about.ts";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  kernel: string;
  node: string;
  postgres: string;
  loadAtEnd: number[];
}

export function describeMachine(databaseUrl: string): Machine {
  let postgres = "unreachable";
  try {
    postgres = execFileSync("psql", [databaseUrl, "-Atc", "show server_version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    // psql missing or server down: said as such
  }
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    postgres,
    loadAtEnd: loadavg().map((l) => Math.round(l * 10) / 10),
  };
}

const num = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined || Number.isNaN(v)
    ? "-"
    : v.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (v: number | null | undefined) => (v === null || v === undefined ? "-" : `${v.toFixed(2)}x`);
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function figure(r: ResultRow): string {
  if (r.value !== undefined) return `${num(r.value)} ${r.unit ?? ""}`.trim();
  return `${num(r.rps)} req/s`;
}

export function publish(
  docsDir: string,
  results: SuiteResult[],
  missing: string[],
  profiled: SuiteResult[],
  machine: Machine,
  startedAt: Date,
): { md: string; json: string } {
  const goals = results.flatMap((s) => s.rows.filter((r) => r.goal).map((r) => ({ suite: s.suite, ...r })));
  const out: string[] = [
    "# Benchmarks",
    "",
    `Measured ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC by \`npm run bench\` (all suites, one run, ${Math.round((Date.now() - startedAt.getTime()) / 60000)} min) on ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GiB, Linux ${machine.kernel}, Node.js ${machine.node}, PostgreSQL ${machine.postgres}; 1-minute load at the end ${machine.loadAtEnd[0]}.`,
    "",
    "The machine is shared and noisy, so a figure is read against an anchor measured in the same run: **x baseline** is req/s over a bare Express app serving the same bytes (same round), **x node** over node's own `http` serving the same bytes (the ceiling), **x Fastify** over a Fastify 5 + pg route doing the same read (params schema, Authorization compared, one named statement: `bench/anchors/fastify-pg.ts`), **x Prism** over Prism's mock of the spec, and in the scale curves the ratio to the smallest size (1.00x is flat). p50/p99 are latencies in milliseconds at the stated connections. This file is rewritten by every full run; a figure quoted elsewhere comes from here.",
    "",
  ];
  if (missing.length)
    out.push(`**Not in this run:** ${missing.join(", ")} (the suite failed or was not run; see its output).`, "");
  out.push("## Goals", "", "| figure | on | goal | measured | met |", "|---|---|---|---|---|");
  for (const g of goals) {
    const measured = [
      figure(g),
      g.ratio !== undefined && g.ratio !== null && g.value === undefined ? ratio(g.ratio) : "",
      g.ratioToFastify ? `${ratio(g.ratioToFastify)} Fastify` : "",
      g.ratioToPrism ? `${ratio(g.ratioToPrism)} Prism` : "",
      g.cpuRatio?.server ? `CPU ${ratio(g.cpuRatio.server)}` : "",
      g.cpuToFastify ? `CPU ${ratio(g.cpuToFastify)} Fastify's` : "",
      g.cpuRatio?.database && g.cpuRatio.database >= 0.1 ? `CPU in PostgreSQL ${ratio(g.cpuRatio.database)}` : "",
      g.p50 !== undefined ? `p50 ${num(g.p50, 1)} ms` : "",
      g.p99 !== undefined ? `p99 ${num(g.p99, 1)} ms` : "",
    ]
      .filter(Boolean)
      .join(", ");
    out.push(`| ${cell(g.case)} | ${g.target} | ${cell(g.goal!)} | ${measured} | ${g.met ? "yes" : "**no**"} |`);
  }
  out.push(...levers(), ...bounds(results, machine.cores), ...profileSections(profiled));
  for (const s of results) {
    out.push(
      "",
      `## ${s.title}`,
      "",
      `Suite \`${s.suite}\`, ${s.seconds} s.`,
      "",
      "| case | on | figure | p50 ms | p99 ms | errors | x baseline | x node | x Fastify | x Prism |",
      "|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const r of s.rows) {
      out.push(
        `| ${cell(r.case)} | ${r.target} | ${figure(r)} | ${num(r.p50, 1)} | ${num(r.p99, 1)} | ${r.errors} | ${ratio(r.ratio)} | ${ratio(r.ratioToNode)} | ${ratio(r.ratioToFastify)} | ${ratio(r.ratioToPrism)} |`,
      );
    }
    const measured = s.rows.filter((r) => r.cpu);
    if (measured.length) {
      out.push(
        "",
        `CPU per request in µs (median over rounds) by process, and how busy the ${machine.cores} cores were:`,
        "",
        "| case | on | server | PostgreSQL | load generator | whole machine | machine busy |",
        "|---|---|---|---|---|---|---|",
      );
      for (const r of measured)
        out.push(
          `| ${cell(r.case)} | ${r.target} | ${num(r.cpu!.server)} | ${num(r.cpu!.database)} | ${num(r.cpu!.loadgen)} | ${num(r.cpu!.machine)} | ${Math.round(r.cpu!.busy * 100)}% |`,
        );
    }
    const rowNotes = s.rows.filter((r) => r.note).map((r) => `${r.case} (${r.target}): ${r.note}`);
    const all = [...s.notes, ...rowNotes];
    if (all.length) out.push("", ...all.map((n) => `- ${cell(n)}`));
    if (s.problems.length) out.push("", "**Problems:**", "", ...s.problems.map((p) => `- ${cell(p.split("\n")[0]!)}`));
  }
  // Not measured by a full run: how to measure it is said all the same.
  out.push(...neighboursSection());
  const md = out.join("\n") + "\n";
  const json =
    JSON.stringify({ startedAt: startedAt.toISOString(), machine, missing, suites: results, profiled }, null, 2) + "\n";
  writeFileSync(path.join(docsDir, "benchmarks.md"), md);
  writeFileSync(path.join(docsDir, "benchmarks.json"), json);
  return { md, json };
}

/**
 * What the goal asks of the machine's CPU per request. Within it already, the machine's CPU is not what holds the
 * ratio back: the server's one thread is (the instances sentence after it says how busy).
 */
export function machineBudget(goal: number, budget: number, machine: number): string {
  if (machine <= budget)
    return `${goal}x needs about ${num(budget)} µs of the machine per request, and it spent ${num(machine)}: the machine's CPU is not what holds it back, the server's one thread is.`;
  return `${goal}x needs about ${num(budget)} µs of the machine per request, ${num(machine - budget)} µs less than now.`;
}

/**
 * For each goal held as a ratio to the bare app and not met: where the CPU of one request goes, against the
 * bare app's in the same suite. With the machine busy, req/s is about cores x 1 s over the machine's CPU per
 * request, so the ratio is about the bare app's machine µs over ours.
 */
function bounds(results: SuiteResult[], cores: number): string[] {
  const lines: string[] = [];
  for (const s of results) {
    for (const r of s.rows.filter((x) => x.met === false && x.ratioGoal && x.cpu)) {
      const base = s.rows.find((b) => b.case === r.case && b.target === "baseline" && b.cpu);
      if (!base) continue;
      const c = r.cpu!;
      const b = base.cpu!;
      const budget = b.machine / r.ratioGoal!;
      lines.push(
        `- **${r.case}, ${r.target}** (${ratio(r.ratio)}, goal ${r.ratioGoal}x): the machine was ${Math.round(c.busy * 100)}% busy and spent ${num(c.machine)} µs per request, the bare app's run ${num(b.machine)} µs (${ratio(b.machine / c.machine)}). Ours: server ${num(c.server)} µs, PostgreSQL ${num(c.database)} µs, load generator ${num(c.loadgen)} µs; the bare app: server ${num(b.server)} µs, load generator ${num(b.loadgen)} µs. ${machineBudget(r.ratioGoal!, budget, c.machine)} ${instances(c, r.rps ?? 0, cores)}`,
      );
    }
  }
  // A goal held to the Fastify + pg route's server CPU (issue 53): ours against its, both servers' own processes.
  for (const s of results) {
    const heldToCpu = (x: ResultRow) => x.goal?.includes("Fastify's CPU") === true;
    for (const r of s.rows.filter(
      (x) => heldToCpu(x) && x.met === false && x.cpuToFastify && x.cpuToFastify > 1 && x.cpu,
    )) {
      const peer = s.rows.find((f) => f.case === r.case && f.target === "fastify" && f.cpu);
      if (!peer) continue;
      lines.push(
        `- **${r.case}, ${r.target}, server CPU against the Fastify + pg route's** (${ratio(r.cpuToFastify)}, goal at most 1x): our server spent ${num(r.cpu!.server)} µs per request, the route ${num(peer.cpu!.server)} µs (medians over the rounds; the ratio is the median of the rounds' own ratios). Both run the same statement on the same database, so the difference is mostly the server's own edge: the request's checks against the spec, the limits, the request log and metrics, which the route has none of. The profile below says where it goes.`,
      );
    }
  }
  if (!lines.length) return [];
  return [
    "",
    "## What bounds the goals not met",
    "",
    "Measured in the same runs as the figures (CPU time of each process from /proc, divided by the requests answered):",
    "",
    ...lines,
  ];
}

/** The profiled passes: self time of the server's main thread by package and by function, per case and target. */
function profileSections(profiled: SuiteResult[]): string[] {
  const out: string[] = [];
  for (const s of profiled) {
    for (const p of s.profiles ?? []) {
      const row = s.rows.find((r) => r.target === p.target);
      out.push(
        "",
        `### ${s.title.replace(/, profiled$/, "")}, ${p.target}: the server's CPU profile`,
        "",
        `${(p.ms / 1000).toFixed(1)} s of samples during ${row ? `${num(row.rps)} req/s with profiling on` : "the run"}. "(idle)" is the main thread waiting (for the database or the next request); native code is named after its caller.`,
        "",
        "| self time | package or file |  | self time | function |",
        "|---|---|---|---|---|",
      );
      const n = Math.max(p.groups.length, p.functions.length);
      for (let i = 0; i < n; i++) {
        const g = p.groups[i];
        const f = p.functions[i];
        out.push(
          `| ${g ? `${g.pct.toFixed(1)}%` : ""} | ${g ? cell(g.name) : ""} |  | ${f ? `${f.pct.toFixed(1)}%` : ""} | ${f ? cell(f.group.startsWith("(") ? f.name : `${f.name} (${f.group})`) : ""} |`,
        );
      }
    }
  }
  return out.length
    ? [
        "",
        "## Where the server's time goes (CPU profiles)",
        "",
        "A separate pass with `--cpu-prof` after the measured runs, one case at a time.",
        ...out,
      ]
    : [];
}

/** Whether a second instance of the server has anything to gain: its process holds one core at most for JavaScript. */
function instances(c: NonNullable<ResultRow["cpu"]>, rps: number, cores: number): string {
  const serverCores = (c.server * rps) / 1e6;
  const ceiling = (cores * 1e6) / c.machine;
  if (c.busy >= 0.95) return `All ${cores} cores were busy: a second instance would only share them.`;
  return `The server's process used ${serverCores.toFixed(2)} cores (its JavaScript runs on one thread) while the machine was ${Math.round(c.busy * 100)}% busy: a second instance could use the rest, up to about ${num(ceiling)} req/s at this CPU per request (see the instances suite).`;
}

/**
 * The design changes measured so far, each with its before and after (bench/levers.md, written by hand as each
 * lever lands): a full run rewrites the figures above, never this record.
 */
function levers(): string[] {
  const file = path.join(import.meta.dirname, "levers.md");
  return existsSync(file) ? ["", readFileSync(file, "utf8").trim()] : [];
}
