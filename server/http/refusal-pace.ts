// A caller who ignores Retry-After and asks again at once would make the 429 itself the flood: each refusal is
// cheap, but a client looping on 45 connections got ~500 of them a second and held the one event loop that every
// merchant shares (npm run bench:neighbours, taken-email: another merchant's GET went from 4 to 42 ms). So past a
// burst, a caller's refusals are answered after a pause: its loop then asks at most once a second per connection.
import type { NextFunction, Request } from "express";
import { AppError } from "../shared/errors.ts";
import type { Principal } from "../accounts/domain.ts";
import { clientAddress } from "./address-limits.ts";
import type { Res } from "./express.ts";

export interface RefusalPace {
  /** Refusals a second a caller gets at once (a client that backs off never meets the pause). */
  burst: number;
  /** How long the further ones wait (the Retry-After they carry says at least 1 s anyway). */
  holdMs: number;
  /** Refusals held at once per caller; beyond it the answer comes at once and the connection is closed. */
  maxHeld: number;
}

export const REFUSAL_PACE: RefusalPace = { burst: 10, holdMs: 1000, maxHeld: 64 };

interface Caller {
  second: number;
  count: number;
  held: number;
}

/** An error step for the caller limits' 429s; every other error passes on unchanged and at once. */
export function paceRefusals(pace: RefusalPace = REFUSAL_PACE) {
  const callers = new Map<string, Caller>();
  let swept = 0;
  return (err: unknown, req: Request, res: Res, next: NextFunction) => {
    if (!(err instanceof AppError) || err.code !== "rate_limited" || res.locals.refusalPaced) return next(err);
    // Counted once: the API's refusals leave its pipeline for the app's error steps, which pace the site's.
    res.locals.refusalPaced = true;
    const key = refusedCaller(req, res);
    const second = Math.floor(Date.now() / 1000);
    // Refused addresses come and go: forget those of past seconds with nothing held, now and then.
    if (second !== swept && callers.size > 1000) {
      swept = second;
      for (const [k, c] of callers) if (c.held === 0 && c.second !== second) callers.delete(k);
    }
    let c = callers.get(key);
    if (!c) callers.set(key, (c = { second, count: 0, held: 0 }));
    // The same record each second: held refusals of the last one still count against maxHeld.
    if (c.second !== second) {
      c.second = second;
      c.count = 0;
    }
    if (++c.count <= pace.burst) return next(err);
    if (c.held >= pace.maxHeld) {
      res.setHeader("Connection", "close");
      return next(err);
    }
    const caller = c;
    caller.held++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      caller.held--;
      if (caller.held === 0 && callers.get(key) === caller && caller.second !== Math.floor(Date.now() / 1000))
        callers.delete(key);
    };
    const timer = setTimeout(() => {
      release();
      next(err);
    }, pace.holdMs);
    // A client that gives up meanwhile frees its place.
    res.on("close", release);
  };
}

/**
 * Whose refusals these are: a verified caller's own; a publishable key's at one address (a key is public: strangers
 * refused with it must not pace a shopper's refusals); else the client address's (address-limits.ts).
 */
function refusedCaller(req: Request, res: Res): string {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.publishable) return `${principal.name} ${clientAddress(req)}`;
  return principal?.name ?? `A-${clientAddress(req)}`;
}
