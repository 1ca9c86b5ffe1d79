// Where the server's log lines go: stdout, written in batches. pino's own stream writes each line as soon as no write
// is in flight, through libuv's thread pool: under traffic that was one hand-over to a pool thread and one wake-up back
// per request line, ~20 µs of processor time a request of ~105 (bench/levers.md section 25). Lines are gathered for
// up to BATCH_MS, or until BATCH_BYTES, and written together; at exit whatever is gathered is written synchronously.
import { writeSync } from "node:fs";
import { pino } from "pino";

export const BATCH_MS = 10;
export const BATCH_BYTES = 16 * 1024;

/** A pino destination on `fd` (stdout) that writes what `BATCH_MS` gathered at once. */
export function batchedLogStream(fd = 1): pino.DestinationStream & { flushNow(): void } {
  // pino's stream (sonic-boom) does the writing: one write in flight, partial writes and EAGAIN handled, flushed at exit.
  const out = pino.destination({ dest: fd, sync: false });
  let gathered = "";
  let timer: NodeJS.Timeout | undefined;
  const flushNow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!gathered) return;
    const text = gathered;
    gathered = "";
    out.write(text);
  };
  // Before sonic-boom's own flush at exit (registered when it was made, so this one runs after it): what is still
  // gathered goes out synchronously, after what the stream held.
  process.on("exit", () => {
    if (!gathered) return;
    try {
      out.flushSync();
    } catch {
      // a stream that cannot flush (closed stdout) must not hide the exit's cause
    }
    try {
      writeSync(fd, gathered);
    } catch {
      // as above
    }
    gathered = "";
  });
  return {
    write(line: string) {
      gathered += line;
      if (gathered.length >= BATCH_BYTES) flushNow();
      else if (!timer) timer = setTimeout(flushNow, BATCH_MS).unref();
    },
    flushNow,
  };
}
