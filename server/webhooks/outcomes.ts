// Recording outcomes: written as they come, in one statement for all that are ready (queue.ts's finish).
import type { Logger } from "pino";
import type { Db } from "../db/database.ts";
import { finish, type Outcome } from "./queue.ts";

const RETRY_AFTER_ERROR_MS = 1_000;

/**
 * Writes outcomes as they come, in one statement for all that are ready: while one write runs, the next
 * ones gather. A failed write is retried; if the process dies first, the leases bring the deliveries back.
 */
export class OutcomeCommitter {
  private queue: Outcome[] = [];
  private running?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    /** Called after a write with the shortest wait until a retry it scheduled. */
    private readonly retryIn: (ms: number) => void,
    private readonly disableAfterFailingDays: number,
  ) {}

  add(outcomes: Outcome[]): void {
    this.queue.push(...outcomes);
    this.running ??= this.run().finally(() => (this.running = undefined));
  }

  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.queue.length) {
      const batch = this.queue.splice(0, 1000);
      try {
        await finish(this.db, batch, this.disableAfterFailingDays);
        failures = 0;
        const waits = batch.filter((o) => o.wait_ms !== null).map((o) => o.wait_ms!);
        // A little after the due time by the database's clock, which the write just started from.
        if (waits.length) this.retryIn(Math.min(...waits) + 5);
      } catch (err) {
        this.queue.unshift(...batch);
        if (++failures > 20) {
          this.log.error(
            { err, outcomes: this.queue.length },
            "giving up recording webhook outcomes; the deliveries will be retried after their lease",
          );
          this.queue = [];
          return;
        }
        this.log.warn({ err }, "recording webhook outcomes failed; retrying");
        await new Promise((r) => setTimeout(r, RETRY_AFTER_ERROR_MS));
      }
    }
  }
}
