// npm run bench:neighbours [-- FLOOD...]: other merchants' requests while one caller floods the server, one
// flood at a time (bench/suites/neighbours/floods.ts), against the real server as `npm start` runs it
// (PGlite, or a scratch database on the PostgreSQL of DATABASE_URL) with its default per-caller limits.
// For each flood, on a server process of its own (nothing queued by the last flood carries over): the quiet
// side's requests alone, then the same requests under the flood; the figure is the ratio of their p50 (both
// from the same run on the same machine), held to <= 2x with every quiet answer 2xx, and what the flood got.
// BENCH_SECONDS (10) per phase; BENCH_PROFILE=1: the server's CPU profile during each flood, summarised.
import { fork } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { formatSummary, summarise } from "../profile.ts";
import { writeResults, type ResultRow } from "../results.ts";
import type { FloodGot } from "./neighbours/flood-child.ts";
import { FLOOD_NAMES, FLOODS, type FloodName } from "./neighbours/floods.ts";
import { coldKeysReused, probeLoad, PROBES, runProbes, type ProbeFigures } from "./neighbours/probes.ts";
import type { Context } from "./neighbours/context.ts";
import { setUp } from "./neighbours/setup.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const GOAL = 2;

function chosenFloods(): FloodName[] {
  const given = [...process.argv.slice(2), ...(process.env.BENCH_FLOODS ?? "").split(",")]
    .flatMap((a) => a.split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = given.filter((g) => !(FLOOD_NAMES as readonly string[]).includes(g));
  if (unknown.length) {
    console.error(`unknown flood: ${unknown.join(", ")} (choose from ${FLOOD_NAMES.join(", ")})`);
    process.exit(2);
  }
  return given.length ? FLOOD_NAMES.filter((f) => given.includes(f)) : [...FLOOD_NAMES];
}

/** Forks the flood, waits until it has built its requests, and returns the function that sets it off. */
async function prepareFlood(flood: FloodName, ctx: Context): Promise<() => Promise<FloodGot>> {
  const child = fork(
    path.join(import.meta.dirname, "neighbours/flood-child.ts"),
    [JSON.stringify({ flood, ctx, seconds: SECONDS })],
    { execArgv: ["--import", "tsx"] },
  );
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`flood ${flood} exited with code ${code}`))),
  );
  const message = <T>() => Promise.race([new Promise<T>((resolve) => child.once("message", resolve)), exited]);
  await message<string>();
  return () => {
    const got = message<FloodGot>();
    child.send("go");
    return got;
  };
}

const ms = (x: number) => (Number.isNaN(x) ? "-" : x < 10 ? x.toFixed(1) : x.toFixed(0));
const fmt = (n: number) => n.toLocaleString("en");
const ratioOf = (under: number, alone: number) => under / Math.max(alone, 0.1);
const statusText = (s: Record<string, number>, errors: number, cutOff: number) =>
  [
    ...Object.entries(s).map(([k, v]) => `${k}: ${fmt(v)}`),
    ...(cutOff ? [`${fmt(cutOff)} unanswered when cut off`] : []),
    ...(errors ? [`${fmt(errors)} connection errors`] : []),
  ].join(", ");

/** The goal: p50 under the flood at most GOAL times the p50 alone, and every quiet request answered 2xx. */
function verdict(a: ProbeFigures, u: ProbeFigures) {
  const r50 = ratioOf(u.p50, a.p50);
  const r99 = ratioOf(u.p99, a.p99);
  const met = r50 <= GOAL && u.failed === 0;
  const why = [
    ...(r50 > GOAL ? [`p50 ${r50.toFixed(1)}x`] : []),
    ...(u.failed ? [`${fmt(u.failed)} not answered 2xx`] : []),
  ].join(", ");
  return {
    r50,
    r99,
    met,
    line: `goal: p50 under flood <= ${GOAL}x quiet, all 2xx -> ${met ? "met" : `MISSED (${why})`}`,
  };
}

interface Measured {
  flood: FloodName;
  alone: ProbeFigures[];
  under: ProbeFigures[];
  got: FloodGot;
  window: [number, number];
}

const flooded: FloodName[] = chosenFloods();
const scratch = process.env.BENCH_PROFILE ? mkdtempSync(path.join(tmpdir(), "bench-neighbours-profile-")) : undefined;
const startedAt = new Date();
const bench = await setUp();
const { kind } = bench;
const measured: Measured[] = [];
const say = (s = "") => console.log(s);
say(
  `bench:neighbours on ${kind}, ${SECONDS} s per phase, node ${process.version}, load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores (set up in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s); floods: ${flooded.join(", ")}`,
);
try {
  for (const flood of flooded) {
    const f = FLOODS[flood];
    say(`\n${flood}: ${f.what}`);
    const { ctx } = await bench.serve(scratch && path.join(scratch, flood));
    await runProbes(ctx, f.probes, WARMUP_SECONDS);
    const alone = await runProbes(ctx, f.probes, SECONDS);
    const go = await prepareFlood(flood, ctx);
    const from = Number(process.hrtime.bigint() / 1000n);
    const [under, got] = await Promise.all([runProbes(ctx, f.probes, SECONDS), go()]);
    measured.push({ flood, alone, under, got, window: [from, Number(process.hrtime.bigint() / 1000n)] });
    for (const a of alone) {
      const u = under.find((x) => x.probe === a.probe)!;
      const figures = (x: ProbeFigures) =>
        `p50 ${ms(x.p50)} ms, p99 ${ms(x.p99)} ms, ${fmt(x.answered)} answered (${statusText(x.statuses, x.errors, x.cutOff)})`;
      const v = verdict(a, u);
      say(`  quiet side: ${PROBES[a.probe].title}, ${probeLoad(a.probe)}`);
      say(`    alone:       ${figures(a)}`);
      say(`    under flood: ${figures(u)}`);
      say(`    p50 ${v.r50.toFixed(1)}x quiet, p99 ${v.r99.toFixed(1)}x quiet; ${v.line}`);
    }
    const kb = (bytes: number) => `${(bytes / Math.max(1, got.requests) / 1024).toFixed(1)} KB`;
    say(
      `  the flood got: ${fmt(got.requests)} answers (sent ${kb(got.sentBytes)}, received ${kb(got.receivedBytes)} each), p50 ${ms(got.p50)} ms; ${statusText(got.statuses, got.errors, got.cutOff)}`,
    );
  }
  summary();
} finally {
  await bench.close();
  if (scratch) {
    for (const m of measured) {
      for (const file of readdirSync(path.join(scratch, m.flood)).filter((x) => x.endsWith(".cpuprofile"))) {
        const profile = summarise(path.join(scratch, m.flood, file), [m.window], 25);
        say(formatSummary(`server CPU profile (${kind}) during ${m.flood}`, profile));
      }
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

function summary(): void {
  say(
    `\nsummary (${kind}, load ${loadavg()[0]!.toFixed(1)}): the quiet side's p50 and p99 in ms, alone and under each flood`,
  );
  const head = ["flood", "quiet request", "p50 alone", "p50 flood", "x quiet", "p99 alone", "p99 flood", "x quiet"];
  const widths = [14, 26, 9, 9, 7, 9, 9, 7, 0];
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  say(line([...head, "goal"]));
  const rows: ResultRow[] = [];
  for (const m of measured) {
    for (const a of m.alone) {
      const u = m.under.find((x) => x.probe === a.probe)!;
      const v = verdict(a, u);
      const title = PROBES[a.probe].title;
      const cells = [ms(a.p50), ms(u.p50), `${v.r50.toFixed(1)}x`, ms(a.p99), ms(u.p99), `${v.r99.toFixed(1)}x`];
      say(line([m.flood, title, ...cells, v.line.replace(/^goal: .* -> /, "")]));
      rows.push({
        case: `${title} under ${m.flood}`,
        target: kind,
        p50: u.p50,
        p99: u.p99,
        ratio: v.r50,
        errors: u.failed,
        goal: `<= ${GOAL}x quiet p50, all 2xx`,
        met: v.met,
        note: `alone p50 ${ms(a.p50)} ms, p99 ${ms(a.p99)} ms; the flood got ${statusText(m.got.statuses, m.got.errors, m.got.cutOff)}`,
      });
    }
  }
  if (coldKeysReused())
    say("note: the cold merchants ran out, so some key checks were of a key checked before (maybe cached)");
  writeResults({
    suite: `neighbours-${kind}`,
    title: `Noisy neighbours (${kind})`,
    startedAt: startedAt.toISOString(),
    seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    rows,
    notes: measured.map((m) => `${m.flood}: ${FLOODS[m.flood].what}`),
    problems: [],
  });
}
