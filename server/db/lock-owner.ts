// Who owns the embedded database's lock file, and whether that owner still runs. A pid alone is not enough: a
// process killed with `kill -9` stays a zombie until its parent (or a slow init) reaps it, and `kill(pid, 0)`
// counts a zombie as alive; and once reaped, its pid may be handed to an unrelated process. So the lock records the
// owner's start time beside its pid (field 22 of /proc/<pid>/stat, in clock ticks since boot), which no other
// process with that pid can share. Node has no flock(), and a lock refreshed by modification time would not be
// released by the system either.
import { readFileSync } from "node:fs";

export interface LockOwner {
  pid: number;
  /** The owner's start time from /proc; absent in a lock written before start times were recorded. */
  startTime?: string;
}

/** What is known of a process from /proc/<pid>/stat: undefined when there is no such process (or no /proc). */
function procStat(pid: number): { state: string; startTime: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': the fields after its last ')' are
  // split safely; the state is field 3, the start time field 22.
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: rest[0]!, startTime: rest[19]! };
}

const HAS_PROC = procStat(process.pid) !== undefined;

/** This process as a lock's owner: `<pid> <start time>` (only the pid where there is no /proc). */
export function thisProcessStamp(): string {
  const self = procStat(process.pid);
  return self ? `${process.pid} ${self.startTime}` : String(process.pid);
}

/** A lock file's text read back; undefined when it names no process. */
export function parseStamp(text: string): LockOwner | undefined {
  const [pid, startTime] = text.trim().split(/\s+/);
  const n = Number(pid);
  if (!Number.isInteger(n) || n <= 0) return undefined;
  return startTime ? { pid: n, startTime } : { pid: n };
}

/** Whether the process the lock names still runs: not gone, not a zombie, and (when recorded) started then. */
export function isRunning(owner: LockOwner): boolean {
  if (!HAS_PROC) return signalReaches(owner.pid);
  const now = procStat(owner.pid);
  // 'Z' is a zombie (dead, not yet reaped), 'X' one being reaped: neither holds the files any more.
  if (!now || now.state === "Z" || now.state === "X") return false;
  return owner.startTime === undefined || owner.startTime === now.startTime;
}

function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
