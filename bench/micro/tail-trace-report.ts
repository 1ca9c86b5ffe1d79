// What the slow requests of the open-loop windows overlapped, from bench/micro/tail-trace.mjs's records:
//   npx tsx bench/micro/tail-trace-report.ts [--slow-ms 5] [--list] <pid>.jsonl ...
// A window is a run of requests with no gap over 2 s; an open-loop one (autocannon at an offered 1,000 req/s: 100
// requests back to back on each of 10 connections at each second's start, section 17) is one of 1,500 requests or
// more at 700-1,300 a second. Each slow request (over --slow-ms in the server) is put down to the first of:
//   gc     a pause over 1 ms overlapping it
//   pg     a statement written to PostgreSQL during it, with data back within 1 ms of its end (it waited for a read)
//   timer  a timer's callback over 1 ms overlapping it
//   loop   the event loop's delay over 15 ms in a 50 ms slice overlapping it (the process not run: the machine)
//   none   none of these
// and slow requests that ended within 1 ms of each other are counted as groups (requests waiting for one thing).
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

interface Rec {
  t: string;
  s: number;
  d?: number;
  k?: number;
  max?: number;
  n?: string | number;
  q?: string;
  u?: string;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "slow-ms": { type: "string", default: "5" }, list: { type: "boolean", default: false } },
});
const slowMs = Number(values["slow-ms"]);
const KIND: Record<number, string> = { 1: "scavenge", 2: "minor-mc", 4: "mark-compact", 8: "weak" };
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const overlaps = (a: { s: number; d?: number }, s: number, e: number) => a.s < e && a.s + (a.d ?? 0) > s;

for (const file of positionals) {
  const recs = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec);
  const of = (t: string) => recs.filter((r) => r.t === t).sort((a, b) => a.s - b.s);
  const requests = of("r").filter((r) => !/^\/(readyz|healthz|metrics)/.test(r.u ?? ""));
  const [gcs, delays, timers, writes, data] = [of("gc"), of("eld"), of("timer"), of("w"), of("d")];
  console.log(`${path.basename(file)}: ${requests.length} requests`);
  const windows: Rec[][] = [];
  for (const r of requests) {
    const last = windows.at(-1)?.at(-1);
    if (!last || r.s - last.s > 2000) windows.push([]);
    windows.at(-1)!.push(r);
  }
  for (const w of windows) {
    const start = w[0]!.s;
    const end = w.at(-1)!.s + w.at(-1)!.d!;
    const rate = w.length / ((end - start) / 1000);
    if (w.length < 1500 || rate < 700 || rate > 1300) continue;
    const times = w.map((r) => r.d!).sort((a, b) => a - b);
    const paused = gcs.filter((g) => g.s >= start && g.s <= end);
    const pauses = paused.map((g) => g.d!).sort((a, b) => a - b);
    const kinds = Object.entries(
      paused.reduce<Record<string, number>>(
        (a, g) => ((a[KIND[g.k!] ?? "?"] = (a[KIND[g.k!] ?? "?"] ?? 0) + 1), a),
        {},
      ),
    );
    const causes: Record<string, number> = { gc: 0, pg: 0, timer: 0, loop: 0, none: 0 };
    const slow = w.filter((r) => r.d! > slowMs).sort((a, b) => a.s + a.d! - (b.s + b.d!));
    const groups: Rec[][] = [];
    for (const r of slow) {
      const g = groups.at(-1);
      const last = g?.at(-1);
      if (g && last && r.s + r.d! - (last.s + last.d!) <= 1) g.push(r);
      else groups.push([r]);
    }
    const lines: string[] = [];
    for (const r of slow) {
      const e = r.s + r.d!;
      const gc = gcs.filter((g) => overlaps(g, r.s, e) && g.d! > 1);
      const sent = writes.filter((x) => x.s >= r.s && x.s <= e);
      const answered = data.some((x) => x.s <= e && x.s >= e - 1 && x.s > r.s);
      const timer = timers.filter((x) => overlaps(x, r.s, e));
      const loop = delays.filter((x) => x.s > r.s && x.s - 50 < e);
      const cause = gc.length
        ? "gc"
        : sent.length && answered
          ? "pg"
          : timer.length
            ? "timer"
            : loop.length
              ? "loop"
              : "none";
      causes[cause]!++;
      if (values.list)
        lines.push(
          `    +${(r.s - start).toFixed(1)} ms ${r.d} ms ${cause}` +
            (gc.length ? ` ${gc.map((g) => `${KIND[g.k!]} ${g.d}`).join(", ")}` : "") +
            (sent.length ? ` sent: ${sent.map((x) => x.q!.slice(0, 40)).join(" ; ")}` : "") +
            (timer.length ? ` timers: ${timer.map((x) => `${x.n} ${x.d}`).join(", ")}` : "") +
            (loop.length ? ` loop delay ${Math.max(...loop.map((x) => x.max!))}` : ""),
        );
    }
    const grouped = groups.filter((g) => g.length >= 5);
    console.log(
      `  window at ${(start / 1000).toFixed(1)} s: ${w.length} requests, ${rate.toFixed(0)}/s; in the server p50 ${pct(times, 0.5)} ms, ` +
        `p99 ${pct(times, 0.99)}, max ${times.at(-1)}; loop delay over 15 ms in ${delays.filter((x) => x.s >= start && x.s <= end).length} slices of 50 ms`,
    );
    console.log(
      `    GC: ${paused.length} pauses (${kinds.map(([k, n]) => `${n} ${k}`).join(", ")}), p50 ${pct(pauses, 0.5)} ms, ` +
        `p90 ${pct(pauses, 0.9)}, max ${pauses.at(-1) ?? 0}; mark-compact ${paused
          .filter((g) => g.k === 4)
          .map((g) => g.d)
          .join(", ")}`,
    );
    console.log(
      `    over ${slowMs} ms: ${slow.length} (${Object.entries(causes)
        .map(([c, n]) => `${c} ${n}`)
        .join(", ")}); in groups of 5 or more ending within 1 ms: ${grouped.reduce((a, g) => a + g.length, 0)} ` +
        `in ${grouped.length} (sizes ${grouped.map((g) => g.length).join(" ")})`,
    );
    for (const l of lines) console.log(l);
  }
}
