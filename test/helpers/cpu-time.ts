// The processor time each test file spent (a setup file: it runs in the worker before each file), kept in the file's
// meta for test/file-times.ts. Wall times grow with whatever else the machine runs; processor seconds do not, so they
// compare runs on a shared machine, and their sum over two cores bounds the suite's wall time from below.
// Counted: the worker process (every thread: PGlite's too) and the processes it started (servers, Chromium, tsc),
// whether still running or ended; not counted: what a process started apart from it does (the shared PostgreSQL's
// backends, a cluster that pg_ctl started in the background).
import { readdirSync, readFileSync } from "node:fs";
import { afterAll } from "vitest";

declare module "vitest" {
  interface TaskMeta {
    /** Processor seconds of the file's worker and the processes it started, from its import to its last hook. */
    cpuSeconds?: number;
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux

/** [parent pid, own ticks, ended children's ticks] of a process, from /proc/<pid>/stat. */
function stat(pid: number | "self"): [number, number, number] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return [Number(f[1]), Number(f[11]) + Number(f[12]), Number(f[13]) + Number(f[14])];
  } catch {
    return undefined; // ended meanwhile
  }
}

/** Seconds of this process, its ended children's and its running descendants' own and ended children's. */
function processTreeSeconds(): number {
  const own = process.cpuUsage();
  let ticks = stat("self")?.[2] ?? 0;
  const children = new Map<number, number[]>();
  const ticksOf = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (!s) continue;
    children.set(s[0], [...(children.get(s[0]) ?? []), Number(name)]);
    ticksOf.set(Number(name), s[1] + s[2]);
  }
  const queue = [...(children.get(process.pid) ?? [])];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    ticks += ticksOf.get(pid) ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return (own.user + own.system) / 1e6 + ticks / TICKS_PER_SECOND;
}

// Before the file is imported (setup files run first); the file's own hooks run between these two.
const started = process.platform === "linux" ? processTreeSeconds() : undefined;
// vitest wants the hook's context destructured; only the file (the second argument) is used.
// eslint-disable-next-line no-empty-pattern
afterAll(({}, file) => {
  if (started !== undefined) file.meta.cpuSeconds = processTreeSeconds() - started;
});
