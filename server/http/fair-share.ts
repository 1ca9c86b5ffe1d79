// One event loop serves every merchant: a caller with many requests in flight at once gets that many turns of it,
// and a request that computes for milliseconds holds it for everyone. So while other callers are active, a
// caller's requests run a few at a time and its expensive ones one at a time, spaced out; the rest wait their
// turn (already read and checked, so waiting costs nothing). Alone, a caller runs as many as its limits allow.
// Cheap requests in great numbers hold the loop as surely as one expensive request, so a caller is also charged
// for the loop's busy time, shared among the requests running while it was spent, and waits once it has had its
// part of the last second: the rest stays free for others' requests to start at once.
// Measured by npm run bench:neighbours (docs/benchmarks.md): see the explain and taken-email floods.
import { performance as perfHooks } from "node:perf_hooks";
import type { NextFunction, Request } from "express";
import type { Res } from "./express.ts";
import { isHeavyBody } from "./rate-limit.ts";

export interface FairShareOptions {
  /** Requests of one caller running at once while others are active. */
  share: number;
  /** Of them, expensive ones (isExpensive). */
  expensiveShare: number;
  /** After an expensive request ends, its caller's next waits this many times as long (capped at 1 s). */
  spacing: number;
  /** A caller counts as active for this long after its last request started or ended. */
  activeMs: number;
  /**
   * The most of the event loop's time a caller's requests may have had (decaying over the last second, as a
   * fraction of it) before its next one waits, while others are active.
   */
  loopShare: number;
  /** The loop's busy time so far, in ms (tests give their own clock). */
  loopBusyMs?: () => number;
}

// 8: a merchant's steady traffic (the soak's 40 requests a second at up to 200 ms each on a loaded machine) never
// waits for it; 45 connections of cheap requests still run 8 at a time. (2 made the soak queue past the 64 a caller
// may have in progress, and answer 429.)
// A loop share of 0.4: a flood of cheap requests (a taken email's 409, 600 a second on PGlite) took 80% of the loop
// and doubled other merchants' p50; held to 40%, with another's own share the loop stays about half idle.
export const FAIR_SHARE: FairShareOptions = { share: 8, expensiveShare: 1, spacing: 2, activeMs: 1000, loopShare: 0.4 };
const MAX_SPACING_MS = 1000;
/** The loop's time is shared out this often, and charged with a decay of LOOP_WINDOW_MS. */
const TICK_MS = 20;
const LOOP_WINDOW_MS = 1000;
const loopBusyMs = () => perfHooks.eventLoopUtilization().active;

/**
 * Whether a request's answer costs far more CPU than a read: an explained price (every rule against every
 * point, and an answer of up to hundreds of KB), a preview (the same for a draft list), a large body.
 */
export function isExpensive(req: Request): boolean {
  if (req.path.endsWith("/_preview")) return true;
  // The validator has made it a boolean by now.
  const explain: unknown = req.query.explain;
  if (explain === true || explain === "true") return true;
  return isHeavyBody(req);
}

interface Caller {
  running: number;
  expensive: number;
  /** performance.now() before which the caller's next expensive request waits. */
  expensiveFrom: number;
  waiting: { expensive: boolean; go: () => void; gone: () => boolean }[];
  timer?: NodeJS.Timeout;
  /** Loop time charged (ms, decaying over LOOP_WINDOW_MS). */
  used: number;
  /** Requests running times ms since the last tick, and when `running` last changed. */
  runningMs: number;
  changedAt: number;
}

export function fairShare(o: FairShareOptions = FAIR_SHARE) {
  const callers = new Map<string, Caller>();
  // The two callers seen last, and when: enough to tell whether anyone else is active without a scan.
  const recent: { key: string; at: number }[] = [];
  const seen = (key: string, at: number) => {
    if (recent[0]?.key === key) recent[0].at = at;
    else {
      recent.unshift({ key, at });
      recent.length = Math.min(recent.length, 2);
    }
  };
  const othersActive = (key: string, now: number) =>
    recent.some((r) => r.key !== key && now - r.at < o.activeMs) || runningElsewhere(key);
  // A caller whose requests run long is active however long ago it started them (a loop: this runs per request).
  const runningElsewhere = (key: string) => {
    for (const [k, c] of callers) if (k !== key && c.running > 0) return true;
    return false;
  };

  const mayRun = (key: string, c: Caller, expensive: boolean, now: number) => {
    if (!othersActive(key, now)) return true;
    if (c.running >= o.share || c.used >= o.loopShare * LOOP_WINDOW_MS) return false;
    return !expensive || (c.expensive < o.expensiveShare && now >= c.expensiveFrom);
  };

  const admitWaiting = (key: string, c: Caller) => {
    const now = performance.now();
    c.waiting = c.waiting.filter((w) => !w.gone());
    for (let i = 0; i < c.waiting.length;) {
      const w = c.waiting[i]!;
      if (!mayRun(key, c, w.expensive, now)) {
        i++;
        continue;
      }
      c.waiting.splice(i, 1);
      w.go();
    }
    // An expensive request waiting only for its spacing: look again when the spacing ends.
    clearTimeout(c.timer);
    if (c.waiting.some((w) => w.expensive) && c.expensiveFrom > now)
      c.timer = setTimeout(() => admitWaiting(key, c), c.expensiveFrom - now);
    if (c.running === 0 && c.waiting.length === 0 && c.expensiveFrom <= now && c.used < 1) callers.delete(key);
  };

  // The loop's busy time since the last tick, shared among callers by how many of their requests ran how long.
  const busyClock = o.loopBusyMs ?? loopBusyMs;
  let tickTimer: NodeJS.Timeout | undefined;
  let lastTick = 0;
  let lastBusy = 0;
  const settle = (c: Caller, now: number) => {
    c.runningMs += c.running * (now - c.changedAt);
    c.changedAt = now;
  };
  const tick = () => {
    tickTimer = undefined;
    const now = performance.now();
    const busy = busyClock();
    const spent = busy - lastBusy;
    const decay = Math.exp(-(now - lastTick) / LOOP_WINDOW_MS);
    lastTick = now;
    lastBusy = busy;
    let total = 0;
    for (const c of callers.values()) {
      settle(c, now);
      total += c.runningMs;
    }
    for (const c of callers.values()) {
      c.used = c.used * decay + (total > 0 ? (spent * c.runningMs) / total : 0);
      c.runningMs = 0;
    }
    for (const [key, c] of callers) admitWaiting(key, c);
    if (callers.size > 0) tickTimer = setTimeout(tick, TICK_MS).unref();
  };
  const startTicks = () => {
    if (tickTimer) return;
    lastTick = performance.now();
    lastBusy = busyClock();
    tickTimer = setTimeout(tick, TICK_MS).unref();
  };

  let waited = 0;
  const gate = (req: Request, res: Res, next: NextFunction) => {
    const key = res.locals.principal.name;
    const expensive = isExpensive(req);
    let c = callers.get(key);
    const now = performance.now();
    if (!c) {
      c = { running: 0, expensive: 0, expensiveFrom: 0, waiting: [], used: 0, runningMs: 0, changedAt: now };
      callers.set(key, c);
      startTicks();
    }
    const caller = c;
    seen(key, now);
    const run = () => {
      const started = performance.now();
      settle(caller, started);
      caller.running++;
      if (expensive) caller.expensive++;
      let ended = false;
      res.on("close", () => {
        if (ended) return;
        ended = true;
        const at = performance.now();
        settle(caller, at);
        caller.running--;
        if (expensive) {
          caller.expensive--;
          caller.expensiveFrom = at + Math.min(MAX_SPACING_MS, (at - started) * o.spacing);
        }
        seen(key, at);
        admitWaiting(key, caller);
      });
      next();
    };
    if (mayRun(key, caller, expensive, now)) return run();
    waited++;
    caller.waiting.push({ expensive, go: run, gone: () => res.destroyed || res.writableEnded });
    // Waiting only for its spacing (nothing of the caller's may be running to end): admitWaiting sets the timer.
    if (expensive) admitWaiting(key, caller);
  };
  /** Requests waiting for their turn now, of all callers. */
  const waiting = () => [...callers.values()].reduce((n, c) => n + c.waiting.filter((w) => !w.gone()).length, 0);
  /** Requests that waited for their turn, since the start (a scrape of `waiting` misses waits between scrapes). */
  const waitedTotal = () => waited;
  return Object.assign(gate, { waiting, waitedTotal });
}
