// Housekeeping: what the service stored for a while and no longer needs goes, in small batches so that a
// large backlog never holds long locks or makes one huge transaction. Runs beside the webhook dispatcher;
// with several instances each runs it, and their batches simply find less to delete.
import type { Logger } from "pino";
import { deleteExpiredCounters } from "./db/counters.ts";
import type { Db } from "./db/database.ts";
import { forgetExpiredKeys } from "./idempotency/index.ts";
import { pruneOlderThan } from "./webhooks/db.ts";
import { forgetExpiredSessions } from "./auth/sessions.ts";

export interface HousekeepingOptions {
  db: Db;
  logger: Logger;
  /** Finished webhook deliveries and their events older than this go. */
  deliveryRetentionDays: number;
  /** Between runs; the first runs a few seconds after start. */
  intervalMs?: number;
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
  private running: Promise<unknown> | undefined;

  constructor(private opts: HousekeepingOptions) {}

  start(): void {
    const every = this.opts.intervalMs ?? 60 * 60_000;
    const tick = (delay: number) => {
      this.timer = setTimeout(() => {
        this.running = this.run().finally(() => {
          this.running = undefined;
          if (this.timer) tick(every);
        });
      }, delay).unref();
    };
    tick(Math.min(FIRST_RUN_MS, every));
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
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
    return {
      deliveries: await part("webhook deliveries past their retention", () =>
        pruneOlderThan(db, this.opts.deliveryRetentionDays),
      ),
      idempotencyKeys: await part("expired idempotency keys", () => forgetExpiredKeys(db)),
      counters: await part("ended rate-limit windows", () => deleteExpiredCounters(db)),
      sessions: await part("expired portal sessions", () => forgetExpiredSessions(db)),
    };
  }
}
