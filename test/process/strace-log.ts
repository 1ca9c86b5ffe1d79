// Reads an strace log (strace -f -y -xx -s <big> -o <file>) into the system calls in the order they ended, each with
// where it began, for the durable-commits trace test: which file or socket a call wrote or flushed, and the bytes.

export interface Call {
  pid: number;
  name: string;
  /** What -y printed for the descriptor: a path, or socket:[inode]. */
  target: string;
  /** The bytes written (write, writev, pwrite64, pwritev), decoded. */
  data: Buffer;
  /** Positions in the log's order of events: where the call began, where it ended. */
  began: number;
  ended: number;
}

// With -xx, -y's paths and addresses are hex escapes too: no ">" inside.
const ENTRY = /^(\d+)\s+(\w+)\(\d+<([^>]*)>(.*)$/;
const RESUMED = /^(\d+)\s+<\.\.\. (\w+) resumed>/;
const STRING = /"((?:\\x[0-9a-f]{2})*)"/g;

const unescape = (s: string) => s.replace(/\\x([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const bytesOf = (args: string) =>
  Buffer.concat([...args.matchAll(STRING)].map((m) => Buffer.from(m[1]!.replaceAll("\\x", ""), "hex")));

/** The completed calls, in the order they ended; a call still going when the log stops is left out. */
export function parseStrace(log: string): Call[] {
  const calls: Call[] = [];
  const going = new Map<number, Omit<Call, "ended">>();
  log.split("\n").forEach((line, i) => {
    const resumed = RESUMED.exec(line);
    if (resumed) {
      const pid = Number(resumed[1]);
      const call = going.get(pid);
      going.delete(pid);
      if (call && call.name === resumed[2]) calls.push({ ...call, ended: i });
      return;
    }
    const entry = ENTRY.exec(line);
    if (!entry) return;
    const [, pid, name, target, rest] = entry;
    const call = { pid: Number(pid), name: name!, target: unescape(target!), data: bytesOf(rest!), began: i };
    if (rest!.endsWith("<unfinished ...>")) going.set(call.pid, call);
    else calls.push({ ...call, ended: i });
  });
  return calls;
}

const isLog = (c: Call) => c.target.includes("/pg_wal/");
const writes = (c: Call) => ["write", "writev", "pwrite64", "pwritev"].includes(c.name);

/**
 * For a write answered by the server (the answer's bytes hold `mark`, as do the log's records of its commit): the
 * first write to the log that holds `mark`, with the writes to the log that the same thread made right after it
 * (one commit's write can be split), must be followed by an fsync or fdatasync of that log file that began after
 * the last of them ended and ended before the answer's bytes were written. Returns what is missing, or undefined.
 */
export function unflushedAnswer(calls: Call[], mark: string): string | undefined {
  const answer = calls.find((c) => /^(socket|TCP)/.test(c.target) && writes(c) && c.data.includes(mark));
  if (!answer) return `no answer holding ${mark}`;
  const first = calls.findIndex((c) => isLog(c) && writes(c) && c.data.includes(mark));
  if (first < 0) return `no write to the log holding ${mark}`;
  let last = calls[first]!;
  const ownCalls = calls.slice(first + 1).filter((c) => c.pid === last.pid);
  for (const c of ownCalls) {
    if (!(isLog(c) && writes(c))) break;
    last = c;
  }
  if (last.ended > answer.began) return `the answer for ${mark} left before its commit was written`;
  const flushed = calls.some(
    (c) =>
      (c.name === "fsync" || c.name === "fdatasync") &&
      c.target === last.target &&
      c.began > last.ended &&
      c.ended < answer.began,
  );
  return flushed ? undefined : `no flush of ${last.target} between the commit holding ${mark} and its answer`;
}
