// Where the server's log lines go: stdout, written in batches under traffic. pino's own stream writes each line as soon
// as no write is in flight, through libuv's thread pool: under traffic that was one hand-over to a pool thread and one
// wake-up back per request line, ~7 µs of processor time of a ~90 µs GET (bench/levers.md section 30). A line that
// comes after BATCH_MS without one goes out at once (a quiet server's lines are never late); the lines that follow it
// within BATCH_MS are gathered and written together when that time is up, or at BATCH_BYTES. At exit whatever is
// gathered is written synchronously.
import { writeSync } from "node:fs";
import { pino } from "pino";

export const BATCH_MS = 10;
export const BATCH_BYTES = 16 * 1024;

/** A pino destination on `fd` (stdout) that writes the lines of each BATCH_MS under traffic at once. */
export function batchedLogStream(fd = 1): pino.DestinationStream & { flush(cb?: (err?: Error) => void): void } {
  // pino's stream (sonic-boom) does the writing: one write in flight, partial writes and EAGAIN handled, flushed at exit.
  const out = pino.destination({ dest: fd, sync: false });
  let gathered = "";
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = -Infinity;
  const writeGathered = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!gathered) return;
    const text = gathered;
    gathered = "";
    lastWrite = performance.now();
    out.write(text);
  };
  // After sonic-boom's own flush at exit (registered when it was made, so before this one): what is still gathered
  // goes out synchronously, after what the stream held.
  process.on("exit", () => {
    if (!gathered) return;
    try {
      out.flushSync();
      writeSync(fd, gathered);
    } catch {
      // a closed stdout must not hide the exit's cause
    }
    gathered = "";
  });
  return {
    write(line: string) {
      gathered += line;
      if (timer === undefined && performance.now() - lastWrite >= BATCH_MS) writeGathered();
      else if (gathered.length >= BATCH_BYTES) writeGathered();
      else timer ??= setTimeout(writeGathered, BATCH_MS).unref();
    },
    /** What is gathered goes now (pino's logger.flush calls it: the start's "listening" line is read by tools). */
    flush(cb?: (err?: Error) => void) {
      writeGathered();
      out.flush(cb);
    },
  };
}
