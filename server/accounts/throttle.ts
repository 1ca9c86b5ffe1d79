// Failed sign-ins are counted per client address and per account+address, in the database, so that
// every instance on one PostgreSQL counts against the same limits: adding instances does not multiply
// the guesses an attacker may make. An address over either limit gets no answer about any secret until
// its window ends; the account's owner at another address is never locked out by someone else's failures.
import type { Db } from "../db/database.ts";
import { WindowCounter, type Counted } from "../db/counters.ts";

export interface LoginThrottleLimits {
  /** Failed attempts an address may make within the window, over all accounts. 0: no limit. */
  perAddress: number;
  /** Failed attempts an address may make for one account within the window. 0: no limit. */
  perAccount: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = { perAddress: 200, perAccount: 10, windowMs: 15 * 60_000 };

const MAX_REMEMBERED = 10_000;

export class LoginThrottle {
  private byAddress: WindowCounter | undefined;
  private byAccount: WindowCounter | undefined;
  /** Blocks this instance has seen (key -> until, epoch ms), for the requests that skip the database. */
  private blocked = new Map<string, number>();

  constructor(db: Db, limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS) {
    const seconds = Math.max(1, Math.round(limits.windowMs / 1000));
    if (limits.perAddress > 0) this.byAddress = new WindowCounter(db, "login-address", limits.perAddress, seconds);
    if (limits.perAccount > 0) this.byAccount = new WindowCounter(db, "login-account", limits.perAccount, seconds);
  }

  /**
   * Seconds until `address` may try `username` again; 0 when it may now. Reads the shared counts: for a
   * secret that needs checking (scrypt costs far more than this round trip).
   */
  async blockedFor(address: string, username: string): Promise<number> {
    const [a, u] = await Promise.all([
      this.byAddress?.read(address),
      this.byAccount?.read(accountKey(address, username)),
    ]);
    this.remember(address, username, a, u);
    return this.knownBlockedFor(address, username);
  }

  /**
   * The same from what this instance has seen, without a round trip: for credentials verified moments
   * ago. Any failed guess from a blocked address reads the shared counts and is remembered here, so a
   * blocked address cannot tell a right secret from a wrong one by the answer.
   */
  knownBlockedFor(address: string, username: string): number {
    const now = Date.now();
    const until = Math.max(this.blocked.get(address) ?? 0, this.blocked.get(accountKey(address, username)) ?? 0);
    return until > now ? Math.max(1, Math.ceil((until - now) / 1000)) : 0;
  }

  async failed(address: string, username: string): Promise<void> {
    const [a, u] = await Promise.all([
      this.byAddress?.add(address),
      this.byAccount?.add(accountKey(address, username)),
    ]);
    this.remember(address, username, a, u);
  }

  private remember(address: string, username: string, a: Counted | undefined, u: Counted | undefined) {
    const block = (key: string, c: Counted | undefined, counter: WindowCounter | undefined) => {
      if (!c || !counter || c.consumed < counter.limit) return;
      if (this.blocked.size >= MAX_REMEMBERED) {
        const now = Date.now();
        for (const [k, until] of this.blocked) if (until <= now) this.blocked.delete(k);
        if (this.blocked.size >= MAX_REMEMBERED) this.blocked.clear();
      }
      this.blocked.set(key, c.resetsAt);
    };
    block(address, a, this.byAddress);
    block(accountKey(address, username), u, this.byAccount);
  }
}

// Usernames are at most 102 characters when valid; a longer one is still one key, not a memory sink.
const accountKey = (address: string, username: string) => `${address}\n${username.slice(0, 128)}`;
