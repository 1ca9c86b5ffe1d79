// Key derivations (scrypt) are the costly part of a sign-in, and anyone may ask for one by sending a wrong
// secret. They run in lanes: one per account that a credential claims (a known merchant's API key and portal
// users share the merchant's lane) and one for every credential of no known account. A free slot goes to the
// lane with work that was served longest ago, so a lane with a long queue waits for its own turns, not in
// front of others; the anonymous lane never holds more than one slot, so strangers cannot take every core.
// Each lane waits for at most `maxWaiting`; beyond that its callers get 503 at once, the other lanes untouched.
import { AppError } from "../shared/errors.ts";

/** The lane of credentials that name no known account (unknown key ids, unknown emails). */
export const ANONYMOUS_LANE = "anonymous";

/** The lane of an account's credentials: a merchant's API secret and its portal users' passwords share one. */
export const accountLane = (role: "merchant" | "operator", id: string) => `${role}:${id}`;

interface Lane {
  waiting: (() => void)[];
  running: number;
  /** When it was last served (0: never): the free slot goes to the lane served longest ago. */
  turn: number;
}

export class DerivationQueue {
  private lanes = new Map<string, Lane>();
  private running = 0;
  private turns = 0;
  /** Derivations started since the process began (tests count them; a right generated secret adds none). */
  started = 0;

  constructor(
    readonly slots = 2,
    readonly maxWaiting = 32,
    readonly anonymousSlots = 1,
  ) {}

  /** Runs `task` in `lane` when its turn comes; rejects with 503 `unavailable` when the lane's queue is full. */
  run<T>(lane: string, task: () => Promise<T>): Promise<T> {
    let l = this.lanes.get(lane);
    if (l && l.waiting.length >= this.maxWaiting) {
      return Promise.reject(
        new AppError("unavailable", "Too many credentials are being checked right now; retry in a second.", [], {
          "Retry-After": "1",
        }),
      );
    }
    if (!l) this.lanes.set(lane, (l = { waiting: [], running: 0, turn: 0 }));
    const own = l;
    return new Promise<T>((resolve, reject) => {
      own.waiting.push(() => {
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            own.running--;
            this.running--;
            if (own.running === 0 && own.waiting.length === 0 && this.lanes.get(lane) === own) this.lanes.delete(lane);
            this.pump();
          });
      });
      this.pump();
    });
  }

  /** Derivations waiting for a slot, in all lanes (metrics). */
  waiting(): { anonymous: number; accounts: number } {
    let anonymous = 0;
    let accounts = 0;
    for (const [name, l] of this.lanes) {
      if (name === ANONYMOUS_LANE) anonymous += l.waiting.length;
      else accounts += l.waiting.length;
    }
    return { anonymous, accounts };
  }

  /** Waiting and running derivations of a lane (for tests and metrics). */
  load(lane: string): { waiting: number; running: number } {
    const l = this.lanes.get(lane);
    return { waiting: l?.waiting.length ?? 0, running: l?.running ?? 0 };
  }

  private pump() {
    while (this.running < this.slots) {
      const l = this.nextLane();
      if (!l) return;
      l.turn = ++this.turns;
      l.running++;
      this.running++;
      this.started++;
      l.waiting.shift()!();
    }
  }

  /** Lanes are as many as callers waiting at most; a scan is cheaper than the derivation it schedules. */
  private nextLane(): Lane | undefined {
    let next: Lane | undefined;
    for (const [name, l] of this.lanes) {
      if (l.waiting.length === 0 || (name === ANONYMOUS_LANE && l.running >= this.anonymousSlots)) continue;
      if (!next || l.turn < next.turn) next = l;
    }
    return next;
  }
}
