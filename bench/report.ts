// The benchmark's table, its per-case summary and the loud warnings.
import type { TargetName } from "./cases.ts";
import type { CpuPerRequest } from "./cpu.ts";
import type { Figures } from "./measure.ts";

export interface Row extends Omit<Figures, "window"> {
  round: number;
  case: string;
  target: TargetName;
  /** req/s divided by the baseline's req/s for the same case in the same round. */
  ratio: number | null;
  /** The machine's 1-minute load average after the run: other work on the machine lowers heavy targets' ratios. */
  load: number;
}

export interface SummaryRow {
  case: string;
  target: TargetName;
  medianRps: number;
  medianRatio: number | null;
  ratios: (number | null)[];
  medianP50: number;
  medianP99: number;
  non2xxAndErrors: number;
  /** Median CPU per request by process, when measured. */
  cpu?: CpuPerRequest;
}

const COLUMNS = ["round", "case", "target", "req/s", "p50 ms", "p99 ms", "non-2xx+err", "x baseline", "load"];
const WIDTHS = [5, 16, 8, 8, 7, 7, 11, 10, 5];
const line = (cells: string[]) =>
  cells.map((c, i) => (i < 3 ? c.padEnd(WIDTHS[i]!) : c.padStart(WIDTHS[i]!))).join("  ");
const ratio = (r: number | null) => (r === null ? "-" : `${r.toFixed(2)}x`);

export const tableHeader = () => line(COLUMNS);

export function tableRow(r: Row): string {
  const bad = r.non2xx + r.errors;
  return line([
    String(r.round),
    r.case,
    r.target,
    r.rps.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    bad ? `${bad} !!` : "0",
    ratio(r.ratio),
    r.load.toFixed(1),
  ]);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function summarise(rows: Row[]): SummaryRow[] {
  const keys = [...new Set(rows.map((r) => `${r.case}\0${r.target}`))];
  return keys.map((key) => {
    const mine = rows.filter((r) => `${r.case}\0${r.target}` === key);
    const ratios = mine.map((r) => r.ratio);
    const known = ratios.filter((x): x is number => x !== null);
    return {
      case: mine[0]!.case,
      target: mine[0]!.target,
      medianRps: median(mine.map((r) => r.rps)),
      medianRatio: known.length ? median(known) : null,
      ratios,
      medianP50: median(mine.map((r) => r.p50)),
      medianP99: median(mine.map((r) => r.p99)),
      non2xxAndErrors: mine.reduce((n, r) => n + r.non2xx + r.errors, 0),
      ...(cpuOf(mine) && { cpu: cpuOf(mine) }),
    };
  });
}

export function formatSummary(summary: SummaryRow[]): string {
  const out = [
    `${"case".padEnd(16)}  ${"target".padEnd(8)}  ${"req/s".padStart(8)}  ${"x baseline".padStart(10)}  ${"per round".padEnd(16)}  ${"p99 ms".padStart(7)}  non-2xx+err`,
  ];
  for (const s of summary) {
    out.push(
      `${s.case.padEnd(16)}  ${s.target.padEnd(8)}  ${s.medianRps.toFixed(0).padStart(8)}  ${ratio(s.medianRatio).padStart(10)}  ${s.ratios.map(ratio).join(" ").padEnd(16)}  ${s.medianP99.toFixed(1).padStart(7)}  ${s.non2xxAndErrors ? `${s.non2xxAndErrors} !!` : "0"}`,
    );
  }
  return out.join("\n");
}

/**
 * Median over rounds of req/s (or server CPU per request) of `target` over `anchor`'s for the same case in the same
 * round: a ratio to any anchor, each round's noise hitting both.
 */
export function ratioToAnchor(
  rows: Row[],
  caseName: string,
  target: string,
  anchor: string,
  of: "rps" | "cpu" = "rps",
): number | null {
  const perRound = rows
    .filter((r) => r.case === caseName && r.target === target)
    .flatMap((r) => {
      const a = rows.find((p) => p.case === caseName && p.target === anchor && p.round === r.round);
      if (!a) return [];
      if (of === "rps") return a.rps > 0 ? [r.rps / a.rps] : [];
      return r.cpu && a.cpu && a.cpu.server > 0 ? [r.cpu.server / a.cpu.server] : [];
    });
  return perRound.length ? median(perRound) : null;
}

/** Each run that got anything but 2xx answers, with its status codes. */
export function failures(rows: Row[]): string[] {
  return rows
    .filter((r) => r.non2xx + r.errors > 0)
    .map(
      (r) =>
        `round ${r.round} ${r.case} on ${r.target}: ${r.non2xx} non-2xx, ${r.errors} connection errors; statuses ${JSON.stringify(r.statuses)}`,
    );
}

export function banner(lines: string[]): string {
  const bar = "!".repeat(100);
  return [bar, ...lines.map((l) => `!! ${l}`), bar].join("\n");
}

/** The median of each part of the CPU per request over the runs that measured it. */
function cpuOf(rows: Row[]): CpuPerRequest | undefined {
  const known = rows.flatMap((r) => (r.cpu ? [r.cpu] : []));
  if (!known.length) return undefined;
  const med = (k: keyof CpuPerRequest) => median(known.map((c) => c[k]));
  return {
    server: med("server"),
    database: med("database"),
    loadgen: med("loadgen"),
    machine: med("machine"),
    busy: med("busy"),
  };
}
