// CPU time per request, by who spent it: the measured server's process, PostgreSQL's processes, the load
// generator (autocannon runs in this process) and the machine as a whole (Linux /proc). The server, the
// database and the load generator share one machine, so req/s cannot exceed cores x 1 s over the machine's CPU
// per request: these figures say what a figure short of its goal is made of, and whether more instances of the
// server could help (only with idle cores).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export interface CpuPerRequest {
  /** µs of CPU per request in the measured server's process (all its threads; PGlite's database runs there too). */
  server: number;
  /** µs per request in PostgreSQL's processes (every backend: the machine runs no other database work meanwhile). */
  database: number;
  /** µs per request in the load generator. */
  loadgen: number;
  /** µs per request of the whole machine's busy time (the three above, the kernel's network work, the rest). */
  machine: number;
  /** Share of the machine's CPU time that was busy during the run. */
  busy: number;
}

export interface Sample {
  server: number;
  database: Map<number, number>;
  loadgen: number;
  machineBusy: number;
  machineTotal: number;
}

let tickMicros: number | undefined;
function micros(ticks: number): number {
  if (tickMicros === undefined) {
    let hz = 100;
    try {
      hz = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      // getconf missing: Linux's usual 100 Hz
    }
    tickMicros = 1e6 / hz;
  }
  return ticks * tickMicros;
}

/** utime + stime of a process in µs; 0 when it is gone or /proc is missing. */
function processMicros(pid: number): number {
  return statMicros(`/proc/${pid}/stat`);
}

/** utime + stime in µs of each thread of a process, by thread id (the request thread's id is the pid). */
export function threadMicros(pid: number): Map<string, number> {
  return new Map(readdirSync(`/proc/${pid}/task`).map((tid) => [tid, statMicros(`/proc/${pid}/task/${tid}/stat`)]));
}

function statMicros(file: string): number {
  try {
    const stat = readFileSync(file, "utf8");
    // The fields after the command name, which is in parentheses and may hold spaces: state is field 3, utime 14.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return micros(Number(fields[11]) + Number(fields[12]));
  } catch {
    return 0;
  }
}

/** CPU µs of each PostgreSQL process by pid: a backend that ends during a run must not subtract its past. */
function postgresMicros(): Map<number, number> {
  const by = new Map<number, number>();
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return by;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres")
        by.set(Number(pid), processMicros(Number(pid)));
    } catch {
      // exited meanwhile
    }
  }
  return by;
}

function machineMicros(): { busy: number; total: number } {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: micros(total - cpu[3]! - cpu[4]!), total: micros(total) };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export function sampleCpu(serverPid: number | undefined): Sample {
  const own = process.cpuUsage();
  const m = machineMicros();
  return {
    server: serverPid ? processMicros(serverPid) : 0,
    database: postgresMicros(),
    loadgen: own.user + own.system,
    machineBusy: m.busy,
    machineTotal: m.total,
  };
}

export function cpuPerRequest(before: Sample, after: Sample, requests: number): CpuPerRequest | undefined {
  if (requests <= 0 || after.machineTotal <= before.machineTotal) return undefined;
  const per = (k: "server" | "loadgen" | "machineBusy") => Math.round((after[k] - before[k]) / requests);
  // Processes alive at the end: their CPU since the start, or since they started.
  let database = 0;
  for (const [pid, us] of after.database) database += Math.max(0, us - (before.database.get(pid) ?? 0));
  return {
    server: per("server"),
    database: Math.round(database / requests),
    loadgen: per("loadgen"),
    machine: per("machineBusy"),
    busy:
      Math.round(((after.machineBusy - before.machineBusy) / (after.machineTotal - before.machineTotal)) * 100) / 100,
  };
}
