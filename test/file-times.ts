// How long each test file takes, and the order that follows from it. Three files run at a time on two cores and the
// PostgreSQL project starts only when the PGlite one has finished (vitest.config.ts, groupOrder): a long file that
// starts last keeps the other workers idle while it runs alone. vitest orders by its own cache of durations, which a
// fresh clone (CI) does not have; then it ordered by file size, and a 100-line browser journey of 60 s came after
// 600-line files of 2 s. So the run's times are kept in test/file-times.json (written by this reporter in .ci/run,
// committed by whoever refreshes it) and the longest files start first.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Seconds per `<project>:<file relative to the root>`, from the last full run that recorded them. */
export const RECORDED = path.resolve(import.meta.dirname, "file-times.json");
/** Where each run writes its own times (`cp .tmp/file-times.json test/file-times.json` to keep them). */
export const MEASURED = path.resolve(import.meta.dirname, "../.tmp/file-times.json");
/** Where each run writes every file's seconds and processor seconds, to compare the files' cost between runs. */
export const MEASURED_CPU = path.resolve(import.meta.dirname, "../.tmp/file-cpu.json");

const key = (project: string, root: string, file: string) => `${project}:${path.relative(root, file)}`;

function recorded(): Record<string, number> {
  if (!existsSync(RECORDED)) return {};
  return JSON.parse(readFileSync(RECORDED, "utf8")) as Record<string, number>;
}

/**
 * Longest first within each project group, by the recorded times. A file with no recorded time (new since they were
 * recorded) counts as long as the median recorded file of its folder in its project (a new browser journey is long,
 * a new unit test short); with neither, vitest's own order (unknown and larger files first) places it after those.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const times = recorded();
    const ordered = await super.sort(files);
    if (Object.keys(times).length === 0) return ordered;
    const root = this.ctx.config.root;
    const folder = (k: string) => path.dirname(k);
    const byFolder = new Map<string, number[]>();
    for (const [k, s] of Object.entries(times)) byFolder.set(folder(k), [...(byFolder.get(folder(k)) ?? []), s]);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const seconds = (f: TestSpecification) => {
      const k = key(f.project.name, root, f.moduleId);
      const near = byFolder.get(folder(k));
      return times[k] ?? (near ? median(near) : 0);
    };
    // Stable: files of equal time keep vitest's order.
    return ordered.sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        seconds(b) - seconds(a),
    );
  }
}

/** The time a file held its worker: importing it, its set-up, its hooks and tests. */
function fileSeconds(m: TestModule): number {
  const d = m.diagnostic();
  return (d.collectDuration + d.setupDuration + d.duration) / 1000;
}

/**
 * Prints the ten slowest files and the sums of every file's time (file-seconds: what the workers spent) and processor
 * time (cpu-seconds, test/helpers/cpu-time.ts: the figure to compare between runs on a shared machine, where the wall
 * time and the file-seconds depend on the neighbours; over two cores, half of it is the least wall time the suite
 * can take), and writes every file's time to .tmp/file-times.json.
 */
export default class FileTimes implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length === 0) return;
    const rows = modules
      .map((m) => ({
        key: key(m.project.name, m.project.config.root, m.moduleId),
        seconds: fileSeconds(m),
        cpu: m.meta().cpuSeconds,
      }))
      .sort((a, b) => b.seconds - a.seconds);
    const total = rows.reduce((s, r) => s + r.seconds, 0);
    const cpu = rows.reduce((s, r) => s + (r.cpu ?? 0), 0);
    const lines = rows
      .slice(0, 10)
      .map((r) => `  ${r.seconds.toFixed(1).padStart(7)} s ${(r.cpu ?? NaN).toFixed(1).padStart(7)} cpu-s  ${r.key}`);
    console.log(
      `\nThe ten slowest test files (of ${rows.length}; ${total.toFixed(0)} file-seconds and ${cpu.toFixed(0)} cpu-seconds in all):\n${lines.join("\n")}`,
    );
    mkdirSync(path.dirname(MEASURED), { recursive: true });
    writeFileSync(
      MEASURED,
      `${JSON.stringify(Object.fromEntries(rows.map((r) => [r.key, Math.round(r.seconds)])), null, 2)}\n`,
    );
    const round = (x: number | undefined) => (x === undefined ? null : Math.round(x * 10) / 10);
    const byCpu = [...rows].sort((a, b) => (b.cpu ?? 0) - (a.cpu ?? 0));
    // One file a line, the most processor seconds first.
    const entries = byCpu.map(
      (r) => `  ${JSON.stringify(r.key)}: ${JSON.stringify({ seconds: round(r.seconds), cpu: round(r.cpu) })}`,
    );
    writeFileSync(MEASURED_CPU, `{\n${entries.join(",\n")}\n}\n`);
  }
}
