// Failed logins are counted per client address and per account+address, in this process's memory.
// An address over either limit gets no answer about any secret until its window ends, so guessing
// is slow; the account's owner at another address is never locked out by someone else's failures.
import { MemoryStore, type Options } from "express-rate-limit";

export interface LoginThrottleLimits {
  /** Failed attempts an address may make within the window, over all accounts. 0: no limit. */
  perAddress: number;
  /** Failed attempts an address may make for one account within the window. 0: no limit. */
  perAccount: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = { perAddress: 200, perAccount: 10, windowMs: 15 * 60_000 };

export class LoginThrottle {
  private byAddress = new MemoryStore();
  private byAccount = new MemoryStore();

  constructor(private limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS) {
    this.byAddress.init({ windowMs: limits.windowMs } as Options);
    this.byAccount.init({ windowMs: limits.windowMs } as Options);
  }

  /** Seconds until `address` may try `username` again; 0 when it may now. */
  async blockedFor(address: string, username: string): Promise<number> {
    const [a, u] = await Promise.all([this.byAddress.get(address), this.byAccount.get(accountKey(address, username))]);
    const until = Math.max(
      this.limits.perAddress > 0 && a && a.totalHits >= this.limits.perAddress ? a.resetTime!.getTime() : 0,
      this.limits.perAccount > 0 && u && u.totalHits >= this.limits.perAccount ? u.resetTime!.getTime() : 0,
    );
    return until === 0 ? 0 : Math.max(1, Math.ceil((until - Date.now()) / 1000));
  }

  async failed(address: string, username: string): Promise<void> {
    await Promise.all([this.byAddress.increment(address), this.byAccount.increment(accountKey(address, username))]);
  }

  close(): void {
    this.byAddress.shutdown();
    this.byAccount.shutdown();
  }
}

// Usernames are at most 102 characters when valid; a longer one is still one key, not a memory sink.
const accountKey = (address: string, username: string) => `${address}\n${username.slice(0, 128)}`;
