// WEB_CONCURRENCY: several server processes on one port (node:cluster), on PostgreSQL, where instances already
// share their limits, caches and webhook work through the database (the embedded database is one process's). This
// primary only starts, restarts and stops them: a request never passes through its JavaScript.
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "pino";

/** A process that ends this often in a row before it listens is not restarted again: the whole server stops. */
const FAILED_STARTS = 5;
const RESTART_DELAY_MS = 1000;

export function runPrimary(count: number, logger: Logger): void {
  let stopping = false;
  let listened = false;
  let failedStarts = 0;
  let exitCode = 0;
  const listening = new WeakSet<Worker>();

  const fork = () => {
    const worker = cluster.fork();
    worker.once("listening", () => {
      listening.add(worker);
      failedStarts = 0;
      if (!listened) {
        listened = true;
        // The first process migrated the database (and seeded the demo) alone; the others find it ready.
        for (let i = 1; i < count; i++) fork();
      }
    });
  };

  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
    if (!Object.keys(cluster.workers ?? {}).length) process.exit(exitCode);
  };

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (code) exitCode = code;
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(exitCode);
      return;
    }
    const started = listening.has(worker);
    if (!started) failedStarts++;
    // At start (nothing listens yet) a failure is the configuration's or the database's: the same would follow.
    if (!listened || failedStarts >= FAILED_STARTS) {
      logger.fatal({ pid: worker.process.pid, code, signal }, "a server process could not start; stopping");
      exitCode = code || 1;
      stopAll("SIGTERM");
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, "a server process ended; starting another");
    setTimeout(() => !stopping && fork(), RESTART_DELAY_MS);
  });

  // A terminal's Ctrl-C reaches every process of the group; a supervisor's SIGTERM only this one. Each process
  // shuts down gracefully once, whichever way the signal came.
  process.on("SIGTERM", () => stopAll("SIGTERM"));
  process.on("SIGINT", () => stopAll("SIGINT"));
  logger.info({ processes: count }, "starting the server processes (WEB_CONCURRENCY)");
  fork();
}
