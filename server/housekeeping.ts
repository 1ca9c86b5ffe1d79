// Housekeeping: what the service stored for a while and no longer needs goes, in small batches so that a
// large backlog never holds long locks or makes one huge transaction. Runs beside the webhook dispatcher;
// with several instances each runs it, and their batches simply find less to delete.
import type { Logger } from "pino";
import { deleteExpiredCounters } from "./db/counters.ts";
import type { Db } from "./db/database.ts";
import { forgetExpiredKeys } from "./idempotency/index.ts";
import { pruneOlderThan } from "./webhooks/db.ts";
import { forgetExpiredSessions } from "./auth/sessions.ts";
import { forgetExpiredStationSessions } from "./warehouse/sessions.ts";
import { analyzeGrownTables, vacuumTables } from "./db/upkeep.ts";

export interface HousekeepingOptions {
  db: Db;
  logger: Logger;
  /** Finished webhook deliveries and their events older than this go. */
  deliveryRetentionDays: number;
  /** Between runs; the first runs a few seconds after start. */
  intervalMs?: number;
  /**
   * The embedded database, which has no autovacuum (db/upkeep.ts): grown tables are analysed every
   * `statisticsIntervalMs` (5 s: at autovacuum's minute, reads measured 5-13x slower in the first minute of
   * creates on a new database, planned for the tables' start-up size) and each sweep ends with VACUUM (ANALYZE).
   */
  embedded?: boolean;
  statisticsIntervalMs?: number;
}

export interface Swept {
  deliveries: number;
  idempotencyKeys: number;
  counters: number;
  sessions: number;
}

const FIRST_RUN_MS = 5_000;

export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;
  private statisticsTimer: NodeJS.Timeout | undefined;
  /** A refresh is queued or running: a tick behind a long VACUUM does not queue another. */
  private refreshing = false;
  /** The job running or last run: jobs take turns, and stop() waits for the last. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private opts: HousekeepingOptions) {}

  start(): void {
    const every = this.opts.intervalMs ?? 60 * 60_000;
    const tick = (delay: number) => {
      this.timer = setTimeout(() => {
        void this.inTurn(() => this.run()).finally(() => {
          if (this.timer) tick(every);
        });
      }, delay).unref();
    };
    tick(Math.min(FIRST_RUN_MS, every));
    if (this.opts.embedded) {
      this.statisticsTimer = setInterval(() => {
        if (this.refreshing) return;
        this.refreshing = true;
        void this.inTurn(() => this.refreshStatistics()).finally(() => (this.refreshing = false));
      }, this.opts.statisticsIntervalMs ?? 5_000).unref();
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.statisticsTimer);
    this.timer = this.statisticsTimer = undefined;
    await this.queue;
  }

  private inTurn<T>(job: () => Promise<T>): Promise<T> {
    const done = this.queue.then(job);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Embedded database: ANALYZE of the tables that grew; a failure is logged and the next run tries again. */
  async refreshStatistics(): Promise<string[]> {
    try {
      const tables = await analyzeGrownTables(this.opts.db);
      if (tables.length) this.opts.logger.debug({ tables }, "housekeeping: planner statistics refreshed");
      return tables;
    } catch (err) {
      this.opts.logger.warn({ err }, "housekeeping: refreshing planner statistics failed; the next run tries again");
      return [];
    }
  }

  /** One sweep of everything; a part that fails is logged and the others still run. */
  async run(): Promise<Swept> {
    const { db, logger } = this.opts;
    const part = async (what: string, sweep: () => Promise<number>) => {
      try {
        const n = await sweep();
        if (n) logger.info({ deleted: n }, `housekeeping: deleted ${what}`);
        return n;
      } catch (err) {
        logger.warn({ err }, `housekeeping: deleting ${what} failed; the next run tries again`);
        return 0;
      }
    };
    const swept = {
      deliveries: await part("webhook deliveries past their retention", () =>
        pruneOlderThan(db, this.opts.deliveryRetentionDays),
      ),
      idempotencyKeys: await part("expired idempotency keys", () => forgetExpiredKeys(db)),
      counters: await part("ended rate-limit windows", () => deleteExpiredCounters(db)),
      sessions:
        (await part("expired portal sessions", () => forgetExpiredSessions(db))) +
        (await part("expired station sessions", () => forgetExpiredStationSessions(db))),
    };
    if (this.opts.embedded) {
      const started = performance.now();
      await vacuumTables(db).then(
        (tables) =>
          logger.info({ tables, ms: Math.round(performance.now() - started) }, "housekeeping: tables vacuumed"),
        (err) => logger.warn({ err }, "housekeeping: vacuum failed; the next run tries again"),
      );
    }
    return swept;
  }
}
