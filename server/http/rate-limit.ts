import type { NextFunction, Request } from "express";
import type { Logger } from "pino";
import type { Db } from "../db/database.ts";
import { SharedWindowLimit, WindowCounter, warmTogether } from "../db/counters.ts";
import { AppError } from "../shared/errors.ts";
import { clientAddress } from "./address-limits.ts";
import type { Res } from "./express.ts";

/** Makes the minute windows the limits count in; `flush` sends what they counted and have not sent yet. */
export interface SharedWindows {
  (name: string, limit: number): SharedWindowLimit;
  flush(): Promise<void>;
  /** Requests that waited for a round trip to learn a caller's total, over every window made. */
  waited(): number;
}

/**
 * Makes the minute windows the limits below count in, shared by every instance on the database; while it is
 * away requests answer 503 anyway, and meanwhile each instance counts alone. A stopping instance flushes them
 * before it closes the database (main.ts), or the last moment's requests would go uncounted.
 */
export function sharedWindows(db: Db, logger: Logger): SharedWindows {
  let warnedAt = 0;
  const made: SharedWindowLimit[] = [];
  const make = (name: string, limit: number) => {
    const window = new SharedWindowLimit(new WindowCounter(db, name, limit, 60), (err) => {
      // Once in a while, not every 100 ms of an outage: the connection errors are logged already.
      if (Date.now() - warnedAt < 10_000) return;
      warnedAt = Date.now();
      logger.warn({ err }, `could not share the ${name} count; this instance counts alone meanwhile`);
    });
    made.push(window);
    warmTogether(made, window);
    return window;
  };
  return Object.assign(make, {
    flush: async () => void (await Promise.all(made.map((w) => w.flush()))),
    waited: () => made.reduce((sum, w) => sum + w.waited, 0),
  });
}

/**
 * At most `perMinute` requests per authenticated caller (not per IP: many merchants share proxies) in
 * a fixed minute window, counted in the database for all instances together (SharedWindowLimit).
 */
export function perCallerRateLimit(limit: SharedWindowLimit) {
  return (_req: Request, res: Res, next: NextFunction) => {
    const answer = (wait: number) =>
      next(
        wait > 0 ? tooMany(`Too many requests: at most ${limit.limit} a minute. Retry in ${wait} s.`, wait) : undefined,
      );
    const key = res.locals.principal.name;
    const now = limit.takeNow(key);
    if (now !== undefined) return answer(now);
    limit.take(key).then(answer, next);
  };
}

function tooMany(message: string, seconds: number): AppError {
  return new AppError("rate_limited", message, [], { "Retry-After": String(Math.max(1, Math.ceil(seconds))) });
}

/** A body above this is a heavy request: parsing, validating and storing it holds the CPU and a database connection for long. */
export const HEAVY_BODY_BYTES = 16 * 1024;

/** The body's declared length; undefined when it comes without one (`Transfer-Encoding: chunked`). */
function declaredLength(req: Request): number | undefined {
  if (req.headers["content-length"] !== undefined) return Number(req.headers["content-length"]);
  return req.headers["transfer-encoding"] === undefined ? 0 : undefined;
}

/**
 * Whether a request counts as heavy, decided before its body is read. A body of unknown length is heavy
 * up front: it may be up to 1 MB, and deciding later would mean refusing it half read (its bytes already
 * spent). Every JSON client declares Content-Length; only a streamed upload does not.
 */
export function isHeavyBody(req: Request): boolean {
  const length = declaredLength(req);
  return length === undefined || length > HEAVY_BODY_BYTES;
}

/**
 * At most `limit` requests of one caller in progress at once in this process, of which at most
 * `heavyLimit` with a body over HEAVY_BODY_BYTES: a caller's heavy writes queue behind each other (its
 * own), not in front of other callers for the database pool and the CPU. Measured by npm run
 * bench:neighbours: 20 connections of 135 KB orders pushed another merchant's p99 GET from 10 ms to
 * 886 ms on PostgreSQL; with 4 heavy at a time, 91 ms.
 */
export function perCallerConcurrency(limit: number, heavyLimit = 0) {
  const running = new Map<string, number>();
  const heavy = new Map<string, number>();
  const take = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
  const give = (m: Map<string, number>, key: string) => {
    const left = (m.get(key) ?? 1) - 1;
    if (left > 0) m.set(key, left);
    else m.delete(key);
  };
  return (req: Request, res: Res, next: NextFunction) => {
    const key = res.locals.principal.name;
    const isHeavy = heavyLimit > 0 && isHeavyBody(req);
    if (limit > 0 && (running.get(key) ?? 0) >= limit)
      return next(tooMany(`Too many requests in progress: at most ${limit} at once per caller. Retry in 1 s.`, 1));
    if (isHeavy && (heavy.get(key) ?? 0) >= heavyLimit) {
      return next(
        tooMany(
          `Too many large requests in progress: at most ${heavyLimit} with a body over ${HEAVY_BODY_BYTES} bytes (or of undeclared length) at once per caller. Retry in 1 s.`,
          1,
        ),
      );
    }
    take(running, key);
    if (isHeavy) take(heavy, key);
    let done = false;
    // "close" comes for every response, answered or aborted.
    res.on("close", () => {
      if (done) return;
      done = true;
      give(running, key);
      if (isHeavy) give(heavy, key);
    });
    next();
  };
}

/**
 * At most `limit` bytes of request bodies per caller in a fixed minute window (for all instances together),
 * so that one caller's heavy writes cannot take the CPU that parsing and validating them costs from everyone
 * else. A declared Content-Length is charged before the body is read (refused unread); a body without one
 * (chunked) is charged as its bytes arrive, and refused once the window is spent (readJsonBody stops reading).
 */
export function perCallerBodyBytes(limit: SharedWindowLimit) {
  const refusal = (wait: number) =>
    tooMany(`Too many request bytes: at most ${limit.limit} a minute per caller. Retry in ${wait} s.`, wait);
  return (req: Request, res: Res, next: NextFunction) => {
    const key = res.locals.principal.name;
    const size = declaredLength(req);
    if (size === undefined) {
      res.locals.meterBody = async (bytes) => {
        const wait = await limit.spend(key, bytes);
        if (wait > 0) throw refusal(wait);
      };
      return next();
    }
    if (!Number.isFinite(size) || size <= 0) return next();
    const answer = (wait: number) => next(wait > 0 ? refusal(wait) : undefined);
    const now = limit.takeNow(key, size);
    if (now !== undefined) return answer(now);
    limit.take(key, size).then(answer, next);
  };
}

/**
 * At most `limit` bytes of response bodies per caller in a fixed minute window (for all instances together):
 * once a caller's window is spent its further requests are refused until the window ends. An answer is charged
 * its Content-Length when it is sent (every API answer has one); a HEAD is charged what its GET would have sent.
 */
export function perCallerResponseBytes(limit: SharedWindowLimit) {
  return (_req: Request, res: Res, next: NextFunction) => {
    const key = res.locals.principal.name;
    const answer = (wait: number) => {
      if (wait > 0)
        return next(
          tooMany(`Too many response bytes: at most ${limit.limit} a minute per caller. Retry in ${wait} s.`, wait),
        );
      res.on("finish", () => {
        const size = Number(res.getHeader("content-length") ?? 0);
        if (Number.isFinite(size) && size > 0) limit.count(key, size);
      });
      next();
    };
    const now = limit.spentNow(key);
    if (now !== undefined) return answer(now);
    limit.spent(key).then(answer, next);
  };
}

/** Once a key's minute is spent, requests an address that has hardly used the key may still make with it. */
export const NEWCOMER_REQUESTS = 5;

export interface PublishableKeyWindows {
  /** Per key. */
  perKey: SharedWindowLimit;
  /** Per client address, over every key. */
  perAddress: SharedWindowLimit;
  /** Per key and client address: the address's share of the key's minute (limit 0: no share). */
  share: SharedWindowLimit;
  /**
   * Per key and address, NEWCOMER_REQUESTS: whether the address has hardly used the key this minute; and per key (as
   * many as the key's), what newcomers may take once the key's minute is spent.
   */
  newcomer: SharedWindowLimit;
  overflow: SharedWindowLimit;
}

/**
 * Requests made with publishable keys (checkout pages): at most `perKey.limit` a minute per key, and at most
 * `perAddress.limit` a minute per client address over every key, counted for all instances together. A key is
 * public, so this, not its origins, is what keeps one scraper from spending a merchant's allowance or reaching
 * many merchants' keys from one address. Within a key's minute an address has a share of it (`share.limit`),
 * counted first, so that strangers at a few addresses cannot spend it all (six addresses took a key's 600 in
 * 8.7 s, and every shopper then got 429); and once the key's minute is spent all the same (by many addresses), an
 * address new to the key still gets its first few answers, up to the key's allowance again.
 */
export function publishableKeyLimits(w: PublishableKeyWindows) {
  const take = (limit: SharedWindowLimit, key: string) =>
    limit.limit > 0 ? (limit.takeNow(key) ?? limit.take(key)) : 0;
  const refused = (what: string, limit: SharedWindowLimit, wait: number) =>
    tooMany(`Too many requests ${what}: at most ${limit.limit} a minute. Retry in ${wait} s.`, wait);
  const check = async (keyId: string, address: string): Promise<AppError | undefined> => {
    const addressWait = await take(w.perAddress, address);
    if (addressWait > 0) return refused("with publishable keys from this address", w.perAddress, addressWait);
    const mine = `${keyId} ${address}`;
    const shareWait = await take(w.share, mine);
    if (shareWait > 0) return refused("with this key from this address", w.share, shareWait);
    // Whether this is among the address's first few requests with the key this minute.
    const newcomer = (await take(w.newcomer, mine)) === 0;
    const keyWait = await take(w.perKey, keyId);
    if (keyWait === 0) return undefined;
    // The key's minute is spent: a newcomer's first few still pass, within a second allowance of the key's size.
    if (newcomer && (await take(w.overflow, keyId)) === 0) return undefined;
    return refused("with this key", w.perKey, keyWait);
  };
  return (req: Request, res: Res, next: NextFunction) => {
    const key = res.locals.principal.publishable;
    if (!key) return next();
    check(key.keyId, clientAddress(req)).then(next, next);
  };
}
