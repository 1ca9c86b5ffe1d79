// Window counters kept in the database, so that every instance on one PostgreSQL counts against the same
// limit: adding instances does not multiply what a caller may do. The store is rate-limiter-flexible's
// Postgres limiter, given the service's own connections (so its statements get the pool's timeouts).
import { RateLimiterPostgres } from "rate-limiter-flexible";
import type { Db } from "./database.ts";
import { leavesKeptReads } from "./coherent-reads.ts";
import { rawAs, type Way } from "./statement-ways.ts";

export const COUNTERS_TABLE = "rate_limit_counters";

export interface Counted {
  /** Points in the key's current window, this addition included. */
  consumed: number;
  /** When the window ends (epoch ms). */
  resetsAt: number;
}

/** A fixed window of `windowSeconds` per key; `name` keeps different limits apart in the one table. */
export class WindowCounter {
  /** The same limiter twice: adding sends its upsert as a write, reading its select as a read (statement-ways.ts). */
  private adding: RateLimiterPostgres;
  private reading: RateLimiterPostgres;
  constructor(
    db: Db,
    name: string,
    readonly limit: number,
    readonly windowSeconds: number,
  ) {
    const store = (way: Way) =>
      // Expired rows go with the service's housekeeping (clearExpired), not with a timer per counter.
      new RateLimiterPostgres({
        storeClient: {
          query: async ({ text, values }: { text: string; values?: unknown[] }) => {
            // Only the counters' own rows: what the embedded database keeps in memory stays (coherent-reads.ts).
            const r = await db.executeQuery(leavesKeptReads(rawAs(way, text, values)));
            return { rows: r.rows, rowCount: r.rows.length || Number(r.numAffectedRows ?? 0) };
          },
        },
        storeType: "pool",
        tableName: COUNTERS_TABLE,
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix: name,
        points: limit,
        duration: windowSeconds,
      });
    this.adding = store("write");
    this.reading = store("read");
  }

  /** Adds `points` to the key's window; never refuses (the caller compares with `limit`). */
  async add(key: string, points = 1): Promise<Counted> {
    const r = await this.adding.penalty(key, points);
    return { consumed: r.consumedPoints, resetsAt: Date.now() + Math.max(0, r.msBeforeNext) };
  }

  async read(key: string): Promise<Counted | undefined> {
    const r = await this.reading.get(key);
    return r ? { consumed: r.consumedPoints, resetsAt: Date.now() + Math.max(0, r.msBeforeNext) } : undefined;
  }
}

/** Deletes windows that ended before `before` (epoch ms); returns how many. */
export async function deleteExpiredCounters(db: Db, before = Date.now()): Promise<number> {
  const r = await db.executeQuery(rawAs("write", `delete from ${COUNTERS_TABLE} where expire < $1`, [before]));
  return Number(r.numAffectedRows ?? 0);
}

/**
 * A WindowCounter for every request without a round trip for each: an instance adds its callers' points
 * locally and sends the sums every `flushMs`, learning the total of all instances in return; a caller
 * whose total is older than that (idle here, or new) waits for one read of it first (at most 200 ms). While the
 * caller's own addition is in flight, the total it will answer with is awaited by no request for up to one more
 * interval: this instance's part is all counted here meanwhile (sent or not), only other instances' last moments
 * are not, and a busy caller's requests would otherwise wait for a commit every interval (the p99 of an offered
 * 1,000 req/s, bench/levers.md section 33). So across N instances a caller overshoots the limit by at most what it
 * sends within two intervals to each of them after another instance's spending, never by N times the limit.
 */
const READ_WAIT_MS = 200;

export class SharedWindowLimit {
  /** Taken here, not yet sent; being sent; the totals of all instances as last read, with when. */
  private pending = new Map<string, number>();
  private sending = new Map<string, number>();
  private known = new Map<string, Counted & { at: number }>();
  private reading = new Map<string, Promise<void>>();
  /** A key's additions in flight, one after the other; and how many were begun (a read compares the count). */
  private adding = new Map<string, Promise<void>>();
  private begun = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** Requests that waited for a round trip to learn their caller's total (published on /metrics). */
  private waits = 0;

  constructor(
    private counter: WindowCounter,
    private onError: (err: unknown) => void = () => {},
    private flushMs = 100,
  ) {}

  get limit(): number {
    return this.counter.limit;
  }

  /**
   * Called as a request starts waiting for `key`'s total (warmTogether: the caller's other windows start reading
   * theirs too, so that a request after a pause waits for one round trip, not one per limit in turn).
   */
  onStale?: (key: string) => void;

  /** Starts reading `key`'s total if this window has counted the key and its total is no longer fresh. */
  warm(key: string): void {
    if (this.known.has(key) && this.verdict(key, 0) === undefined) void this.refresh(key);
  }

  /** How many requests so far waited for a read of their caller's total, or for its addition in flight. */
  get waited(): number {
    return this.waits;
  }

  /** Seconds until `key` may add `points` again, or 0 after adding them. */
  async take(key: string, points = 1): Promise<number> {
    const wait = await this.waitFor(key, points);
    if (wait === 0) this.count(key, points);
    return wait;
  }

  /**
   * `take`'s answer without a promise when the key's total is fresh (most requests of an active caller); undefined
   * when it must be read first: then call `take`. A request's limits cost a promise each otherwise.
   */
  takeNow(key: string, points = 1): number | undefined {
    const wait = this.verdict(key, points);
    if (wait === 0) this.count(key, points);
    return wait;
  }

  /** `spent`'s answer without a promise when the key's total is fresh; undefined when it must be read first. */
  spentNow(key: string): number | undefined {
    return this.verdict(key, 1);
  }

  /**
   * Adds `points` already spent (bytes read or written cannot be refused after the fact); returns the
   * seconds until the window ends when the key is now over its limit, else 0.
   */
  async spend(key: string, points: number): Promise<number> {
    this.count(key, points);
    return this.waitFor(key, 0);
  }

  /** Seconds until the key may spend anything again (its window is used up), or 0. */
  spent(key: string): Promise<number> {
    return this.waitFor(key, 1);
  }

  /** 0 when `points` more fit in the key's window; else the seconds until it ends. */
  private async waitFor(key: string, points: number): Promise<number> {
    const fresh = this.verdict(key, points);
    if (fresh !== undefined) return fresh;
    this.waits++;
    this.onStale?.(key);
    // A healthy database answers in a millisecond; one that is away must not add its connection
    // timeout to every request's own (the request answers 503 by itself), so the wait is short.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.refresh(key), new Promise((r) => (timer = setTimeout(r, READ_WAIT_MS)))]);
    clearTimeout(timer);
    return this.judge(key, points, this.known.get(key), Date.now());
  }

  /** waitFor's answer from the known total when it is fresh; undefined when it must be read first. */
  private verdict(key: string, points: number): number | undefined {
    const now = Date.now();
    const k = this.known.get(key);
    if (!k || k.resetsAt <= now) return undefined;
    const age = now - k.at;
    // Past one interval, fresh enough while the caller's addition is in flight (see the class's comment).
    if (age > this.flushMs && !(age <= 2 * this.flushMs && this.adding.has(key))) return undefined;
    return this.judge(key, points, k, now);
  }

  private judge(key: string, points: number, k: (Counted & { at: number }) | undefined, now: number): number {
    const used = (k?.consumed ?? 0) + (this.pending.get(key) ?? 0) + (this.sending.get(key) ?? 0);
    if (used + points <= this.counter.limit) return 0;
    const resetsAt = k?.resetsAt ?? now + this.counter.windowSeconds * 1000;
    return Math.max(1, Math.ceil((resetsAt - now) / 1000));
  }

  /** Adds `points` already spent, without asking whether the key is now over its limit. */
  count(key: string, points: number): void {
    this.pending.set(key, (this.pending.get(key) ?? 0) + points);
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
  }

  /**
   * One read per key at a time, however many requests wait for it. The read runs on another connection than the
   * additions: one answered while an addition of the key was in flight may or may not hold that addition's points,
   * and counted again with `sending` a caller under its limit was refused for a whole window (as leaving them out let
   * a caller past it). So no read is made while an addition is in flight, whose own answer is the total with its
   * points, and a read that an addition began during is not learnt: that addition's answer is awaited instead.
   */
  private refresh(key: string): Promise<void> {
    const adding = this.adding.get(key);
    if (adding) return adding;
    let reading = this.reading.get(key);
    if (!reading) {
      const begun = this.begun.get(key) ?? 0;
      reading = this.counter
        .read(key)
        .then(
          (c) => {
            if ((this.begun.get(key) ?? 0) !== begun) return this.adding.get(key);
            this.learn(key, c ?? this.emptyWindow());
          },
          // The database is away: the request itself answers 503; the count is not worth failing it for.
          (err) => this.onError(err),
        )
        .finally(() => this.reading.delete(key));
      this.reading.set(key, reading);
    }
    return reading;
  }

  private emptyWindow(): Counted {
    return { consumed: 0, resetsAt: Date.now() + this.counter.windowSeconds * 1000 };
  }

  private learn(key: string, total: Counted) {
    const before = this.known.get(key);
    const now = Date.now();
    // Two answers for one key may arrive out of order: keep the larger total of the same window.
    const sameWindow = before && before.resetsAt > now && Math.abs(total.resetsAt - before.resetsAt) <= 1000;
    if (sameWindow && before.consumed > total.consumed) before.at = now;
    else this.known.set(key, { ...total, at: now });
  }

  /** Sends what was taken since the last flush; the tests call it to skip the wait. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    // Totals are kept only for callers seen in this window: the map never outgrows the active callers.
    const now = Date.now();
    for (const [key, k] of this.known) if (k.resetsAt <= now) this.known.delete(key);
    for (const key of this.begun.keys())
      if (!this.known.has(key) && !this.adding.has(key) && !this.reading.has(key)) this.begun.delete(key);
    const shift = (key: string, points: number) => {
      const left = (this.sending.get(key) ?? 0) + points;
      if (left > 0) this.sending.set(key, left);
      else this.sending.delete(key);
    };
    const add = async (key: string, points: number) => {
      try {
        this.learn(key, await this.counter.add(key, points));
      } catch (err) {
        // The database is away: this instance keeps counting alone until its window ends.
        const k = this.known.get(key);
        if (k) k.consumed += points;
        else
          this.known.set(key, {
            consumed: points,
            resetsAt: Date.now() + this.counter.windowSeconds * 1000,
            at: Date.now(),
          });
        this.onError(err);
      } finally {
        shift(key, -points);
      }
    };
    await Promise.all(
      [...batch].map(([key, points]) => {
        // In flight from now (counted once, as `sending`), after the key's addition still in flight if there is one:
        // each addition's answer then holds every point sent before it and none sent after.
        shift(key, points);
        this.begun.set(key, (this.begun.get(key) ?? 0) + 1);
        const before = this.adding.get(key);
        const done: Promise<void> = (before ? before.then(() => add(key, points)) : add(key, points)).finally(() => {
          if (this.adding.get(key) === done) this.adding.delete(key);
        });
        this.adding.set(key, done);
        return done;
      }),
    );
  }
}

/**
 * Windows whose keys name the same callers (the per-caller limits): when a request must wait for one window's total
 * of a caller, the others that know the caller read theirs at once, in the same moment, instead of each when the
 * request reaches its step.
 */
export function warmTogether(windows: SharedWindowLimit[], window: SharedWindowLimit): void {
  window.onStale = (key) => {
    for (const other of windows) if (other !== window) other.warm(key);
  };
}
