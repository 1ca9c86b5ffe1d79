// The webhook dispatcher: takes due deliveries from the outbox and sends them, started and stopped with
// the server. Several dispatchers (one per server process) share one PostgreSQL.
//
// - Claim: one short statement marks due rows in flight (FOR UPDATE SKIP LOCKED) with a lease and commits;
//   only then are they sent. A dispatcher that dies mid-send leaves its rows in flight until the lease
//   ends, then any dispatcher takes them again (on PGlite, the next start does at once).
// - Wake-up: a commit that queued deliveries notifies (LISTEN/NOTIFY on PostgreSQL, PGlite's in-process
//   notification); retries wake a timer; a slow poll is the safety net.
// - Limits: `concurrency` requests at once, `perMerchant` of them (sent or waiting) for one merchant, and
//   `perEndpoint` to one endpoint: a merchant whose receivers hang uses up its own share, never another
//   merchant's. Claims take merchants in turns (claimSingles). Up to `perEndpoint` more claimed rows wait
//   here for a free slot of their endpoint: each starts within one attempt's timeout, well inside its
//   lease. Beyond that, claimed rows are given back unattempted and the endpoint (or merchant) is left out
//   of claims until it has room.
// - One attempt (attempt.ts) prepares, sends and classifies; outcomes.ts records the outcomes with a group
//   committer: one UPDATE for every outcome that is ready. Retention is housekeeping.ts's.
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/database.ts";
import { newId } from "../shared/ids.ts";
import { attemptDelivery } from "./attempt.ts";
import { OutcomeCommitter } from "./outcomes.ts";
import {
  batchCandidates,
  claimBatch,
  claimSingles,
  lockEndpoints,
  nextDueAt,
  recoverInFlight,
  release,
  type ClaimedRow,
  type Exclusions,
} from "./queue.ts";
import type { WebhookSettings } from "./settings.ts";
import type { MainKeys } from "../secrets/main-keys.ts";

export const WAKE_CHANNEL = "webhook_deliveries";
export const MAX_BATCH = 100;

export interface DispatcherOptions {
  handle: Pick<DatabaseHandle, "db" | "kind" | "listen" | "durable">;
  settings: WebhookSettings;
  /** Open the endpoints' sealed secrets. */
  keys: MainKeys;
  logger: Logger;
  /** Requests in flight at once (a batch is one). */
  concurrency?: number;
  /** Requests in flight at once to one endpoint. */
  perEndpoint?: number;
  /** Requests in flight or waiting here for one merchant (default a quarter of `concurrency`, at least `perEndpoint`). */
  perMerchant?: number;
  /** Safety net: look for due deliveries this often even without a notification. */
  pollMs?: number;
  /** Told each attempt's outcome per delivery (for /metrics): retrying = failed with another attempt scheduled. */
  onAttempt?: (outcome: "succeeded" | "retrying" | "failed", deliveries: number) => void;
}

const RETRY_AFTER_ERROR_MS = 1_000;

export class Dispatcher {
  private readonly db;
  private readonly log: Logger;
  private readonly concurrency: number;
  private readonly perEndpointLimit: number;
  private readonly perMerchantLimit: number;
  private readonly pollMs: number;
  /**
   * How long a claimed delivery stays ours: a wait for a slot (at most one attempt's timeout), the attempt
   * (at most another), and time to record the outcome. A crashed dispatcher's deliveries return after it.
   */
  private readonly leaseMs: number;
  /** While requests are in flight, claim only once this many slots are free: a claim per freed slot costs a query per delivery. */
  private readonly claimChunk: number;

  private started = false;
  private stopping = false;
  private pumping = false;
  private again = false;
  /** The last claim filled its page, or a wake-up came while every slot was busy: look again when one frees. */
  private backlog = false;
  private inFlight = 0;
  /** Claimed deliveries waiting here for a slot of their endpoint. */
  private waiting = 0;
  private readonly perEndpoint = new Map<string, { sending: number; queue: ClaimedRow[] }>();
  /** Requests sent or waiting here, per merchant. */
  private readonly merchantLoad = new Map<string, number>();
  private readonly sends = new Set<Promise<void>>();
  private readonly committer: OutcomeCommitter;
  private unlisten?: () => Promise<void>;
  private poll?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private timerAt?: number;

  constructor(private readonly opts: DispatcherOptions) {
    this.db = opts.handle.db;
    this.log = opts.logger.child({ component: "webhooks" });
    // Waiting sockets are cheap; a few receivers that time out must not hold up everyone else.
    this.concurrency = opts.concurrency ?? 256;
    this.perEndpointLimit = Math.min(opts.perEndpoint ?? 16, this.concurrency);
    this.perMerchantLimit = Math.min(
      this.concurrency,
      opts.perMerchant ?? Math.max(this.perEndpointLimit, Math.floor(this.concurrency / 4)),
    );
    this.pollMs = opts.pollMs ?? 5_000;
    this.leaseMs = 2 * opts.settings.timeoutMs + 5_000;
    this.claimChunk = Math.max(1, Math.min(16, Math.floor(this.concurrency / 4)));
    this.committer = new OutcomeCommitter(
      this.db,
      this.log,
      (ms) => this.wakeIn(ms),
      this.opts.settings.disableAfterFailingDays,
    );
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("dispatcher already started");
    this.started = true;
    if (this.opts.handle.kind === "pglite") {
      const n = await recoverInFlight(this.db);
      if (n) this.log.info({ deliveries: n }, "resuming deliveries left in flight by the previous run");
    }
    this.unlisten = await this.opts.handle.listen(WAKE_CHANNEL, this.wake, (err) =>
      this.log.warn({ err }, "webhook wake-up listener failed; reconnecting"),
    );
    this.poll = setInterval(() => void this.pollNow(), this.pollMs);
    void this.pollNow();
  }

  /** Stops claiming, lets the requests in flight finish and records their outcomes. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.poll);
    clearTimeout(this.timer);
    await this.unlisten?.().catch(() => {});
    while (this.pumping) await new Promise((r) => setTimeout(r, 5));
    // Deliveries still waiting for a slot go back to the queue unattempted; the ones being sent finish.
    const waiting = [...this.perEndpoint.values()].flatMap((e) => e.queue.splice(0));
    this.waiting = 0;
    for (const r of waiting) this.hold(r.merchant_id, -1);
    await release(
      this.db,
      waiting.map((r) => r.id),
    ).catch((err) =>
      this.log.warn({ err }, "giving back waiting webhook deliveries failed; their lease brings them back"),
    );
    while (this.sends.size) await Promise.all([...this.sends]);
    await this.committer.drain();
  }

  /** Something may be due now. */
  readonly wake = (): void => {
    if (this.stopping || !this.started) return;
    void this.pump();
  };

  private wakeIn(ms: number): void {
    if (this.stopping) return;
    const at = Date.now() + Math.max(0, ms);
    if (this.timerAt !== undefined && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timerAt = undefined;
        void this.pollNow();
      },
      Math.max(0, ms),
    );
  }

  /** Claims what is due, then sets the timer for the next delivery due later (a retry, a lease's end). */
  private async pollNow(): Promise<void> {
    if (this.stopping) return;
    await this.pump();
    if (this.stopping) return;
    try {
      const due = await nextDueAt(this.db);
      // Due already but not claimed: another dispatcher has it, or its endpoint is at its limit here.
      if (due && due.getTime() > Date.now()) this.wakeIn(due.getTime() - Date.now() + 5);
    } catch (err) {
      this.log.warn({ err }, "webhook poll failed");
    }
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        while (!this.stopping) {
          if (this.inFlight > 0 && this.free() < this.claimChunk) {
            this.backlog = true;
            break;
          }
          if (!(await this.claimOnce())) break;
        }
      } while (this.again && !this.stopping);
    } catch (err) {
      this.log.error({ err }, "claiming webhook deliveries failed; retrying");
      this.wakeIn(RETRY_AFTER_ERROR_MS);
    } finally {
      this.pumping = false;
    }
  }

  private free(): number {
    return this.concurrency - this.inFlight - this.waiting;
  }

  /** One claim of singles and batches; true when there may be more due right now. */
  private async claimOnce(): Promise<boolean> {
    const free = this.free();
    const rows = await claimSingles(this.db, free, this.perMerchantLimit, this.leaseMs, this.exclusions());
    // Durable commits on the embedded database: an event is sent only once the commit that made it is on the disk,
    // as an answer is (a merchant must not hear of a shipment that a power cut could still lose).
    if (rows.length) await this.opts.handle.durable?.();
    const giveBack: string[] = [];
    for (const row of rows) {
      const e = this.endpoint(row.endpoint_id);
      if (this.load(row.merchant_id) >= this.perMerchantLimit) giveBack.push(row.id);
      else if (e.sending < this.perEndpointLimit) this.launch(row.endpoint_id, [row], false);
      else if (e.sending + e.queue.length < 2 * this.perEndpointLimit) {
        e.queue.push(row);
        this.waiting++;
        this.hold(row.merchant_id, 1);
      } else giveBack.push(row.id);
    }
    if (giveBack.length) await release(this.db, giveBack);
    let more = rows.length === free;

    const room = this.free();
    if (room > 0) {
      // One batch at a time per batching endpoint: while it is sent, the next events gather.
      const candidates = await batchCandidates(this.db, room, {
        endpoints: [...this.perEndpoint.keys()],
        merchants: this.exclusions().merchants,
      });
      if (candidates.length) {
        const batches = await this.db.transaction().execute(async (trx) => {
          const out: ClaimedRow[][] = [];
          for (const id of await lockEndpoints(trx, candidates)) {
            const batch = await claimBatch(trx, id, MAX_BATCH, this.leaseMs, newId());
            if (batch.length) out.push(batch);
          }
          return out;
        });
        if (batches.length) await this.opts.handle.durable?.();
        for (const batch of batches) this.launch(batch[0]!.endpoint_id, batch, true);
        more ||= candidates.length === room || batches.some((b) => b.length === MAX_BATCH);
      }
    }
    this.backlog = more;
    return more;
  }

  private exclusions(): Exclusions {
    return {
      endpoints: [...this.perEndpoint]
        .filter(([, e]) => e.sending + e.queue.length >= 2 * this.perEndpointLimit)
        .map(([id]) => id),
      merchants: [...this.merchantLoad].filter(([, n]) => n >= this.perMerchantLimit).map(([id]) => id),
    };
  }

  private load(merchantId: string): number {
    return this.merchantLoad.get(merchantId) ?? 0;
  }

  private hold(merchantId: string, delta: number): void {
    const n = this.load(merchantId) + delta;
    if (n > 0) this.merchantLoad.set(merchantId, n);
    else this.merchantLoad.delete(merchantId);
  }

  private endpoint(id: string) {
    let e = this.perEndpoint.get(id);
    if (!e) this.perEndpoint.set(id, (e = { sending: 0, queue: [] }));
    return e;
  }

  private launch(endpointId: string, rows: ClaimedRow[], asBatch: boolean): void {
    const e = this.endpoint(endpointId);
    const merchantId = rows[0]!.merchant_id;
    this.inFlight++;
    e.sending++;
    this.hold(merchantId, 1);
    const sending = this.attempt(rows, asBatch).finally(() => {
      this.inFlight--;
      e.sending--;
      const merchantWasFull = this.load(merchantId) >= this.perMerchantLimit;
      this.hold(merchantId, -1);
      this.sends.delete(sending);
      const wasFull = e.sending + 1 + e.queue.length >= 2 * this.perEndpointLimit;
      const next = e.queue.shift();
      if (next) {
        this.waiting--;
        this.hold(next.merchant_id, -1); // held while waiting; launch holds it again
        this.launch(endpointId, [next], false);
      } else if (e.sending === 0) this.perEndpoint.delete(endpointId);
      // Claims left this endpoint or merchant out while it was full (or busy with a batch): look again.
      if (this.backlog || asBatch || wasFull || merchantWasFull) this.wake();
    });
    this.sends.add(sending);
  }

  /** One attempt, then its outcomes to the committer (attempt.ts: prepare, send, classify). */
  private async attempt(rows: ClaimedRow[], asBatch: boolean): Promise<void> {
    const outcomes = await attemptDelivery(rows, asBatch, this.opts.settings, this.opts.keys, this.log);
    if (this.opts.onAttempt) {
      for (const status of ["succeeded", "pending", "failed"] as const) {
        const n = outcomes.filter((o) => o.status === status).length;
        if (n) this.opts.onAttempt(status === "pending" ? "retrying" : status, n);
      }
    }
    this.committer.add(outcomes);
  }
}
