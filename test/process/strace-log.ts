// Reads an strace log (strace -f -y -xx -s <big> -o <file>) into the system calls in the order they ended, each with
// where it began, for the durable-commits trace test: which file or socket a call wrote or flushed, and the bytes.

export interface Call {
  pid: number;
  name: string;
  /** What -y printed for the descriptor: a path, or socket:[inode]. */
  target: string;
  /** The bytes written (write, writev, pwrite64, pwritev), decoded. */
  data: Buffer;
  /** pwrite64: where in the file it wrote, and how many bytes it asked to write. */
  at?: { offset: number; count: number };
  /** Positions in the log's order of events: where the call began, where it ended. */
  began: number;
  ended: number;
}

// With -xx, -y's paths and addresses are hex escapes too: no ">" inside.
const ENTRY = /^(\d+)\s+(\w+)\(\d+<([^>]*)>(.*)$/;
const RESUMED = /^(\d+)\s+<\.\.\. (\w+) resumed>/;
const STRING = /"((?:\\x[0-9a-f]{2})*)"/g;
// What follows pwrite64's buffer: its count and offset (the buffer may have been cut short: `"..."..., 8192, 0)`).
const PWRITE_TAIL = /,\s*(\d+),\s*(\d+)\)?\s*(?:=|<unfinished)/;

const unescape = (s: string) => s.replace(/\\x([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const bytesOf = (args: string) =>
  Buffer.concat([...args.matchAll(STRING)].map((m) => Buffer.from(m[1]!.replaceAll("\\x", ""), "hex")));

/** The completed calls, in the order they ended; a call still going when the log stops (or strace detaches) is left out. */
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
    const at = name === "pwrite64" ? PWRITE_TAIL.exec(rest!.slice(rest!.lastIndexOf('"') + 1)) : null;
    if (at) Object.assign(call, { at: { count: Number(at[1]), offset: Number(at[2]) } });
    if (rest!.endsWith("<detached ...>")) return;
    if (rest!.endsWith("<unfinished ...>")) going.set(call.pid, call);
    else calls.push({ ...call, ended: i });
  });
  return calls;
}

const isLog = (c: Call) => c.target.includes("/pg_wal/");
const isSegment = (c: Call) => /\/pg_wal\/[0-9A-F]{24}$/.test(c.target);
const writes = (c: Call) => ["write", "writev", "pwrite64", "pwritev"].includes(c.name);

/** `next` goes on where `prev` stopped: the same file right after it, or the start of the next log segment. */
const continues = (prev: Call, next: Call) =>
  prev.at !== undefined &&
  next.at !== undefined &&
  (next.target === prev.target
    ? next.at.offset === prev.at.offset + prev.at.count
    : next.at.offset === 0 && isSegment(next));

/**
 * For a write answered by the server (the answer's bytes hold `mark`, as do the log's records of its commit): the
 * first write to the log that holds `mark`, with the writes that continue it (one flush of the log is split where
 * the log's buffer wraps and where a segment ends: the same thread's next writes, each starting where the one before
 * stopped), must be followed, for each file they wrote, by an fsync or fdatasync of that file that began after the
 * last of them ended and ended before the answer's bytes were written. Returns what is missing, or undefined.
 *
 * The next commit's writes are not the answered commit's: they start again at the beginning of the log's last,
 * partly written page. Taking every log write the thread made next as the commit's (as this once did) demanded a
 * flush after a later request's commit, whenever that commit was written while the answered one's flush was
 * already under way (issue 52; the trace test's intermittent miss).
 */
export function unflushedAnswer(calls: Call[], mark: string): string | undefined {
  const answer = calls.find((c) => /^(socket|TCP)/.test(c.target) && writes(c) && c.data.includes(mark));
  if (!answer) return `no answer holding ${mark}`;
  const first = calls.findIndex((c) => isLog(c) && writes(c) && c.data.includes(mark));
  if (first < 0) return `no write to the log holding ${mark}`;
  const commit = [calls[first]!];
  for (const c of calls.slice(first + 1).filter((c) => c.pid === commit[0]!.pid)) {
    if (!(isLog(c) && writes(c) && continues(commit.at(-1)!, c))) break;
    commit.push(c);
  }
  if (commit.at(-1)!.ended > answer.began) return `the answer for ${mark} left before its commit was written`;
  for (const target of new Set(commit.map((c) => c.target))) {
    const written = Math.max(...commit.filter((c) => c.target === target).map((c) => c.ended));
    const flushed = calls.some(
      (c) =>
        (c.name === "fsync" || c.name === "fdatasync") &&
        c.target === target &&
        c.began > written &&
        c.ended < answer.began,
    );
    if (!flushed) return `no flush of ${target} between the commit holding ${mark} and its answer`;
  }
  return undefined;
}
