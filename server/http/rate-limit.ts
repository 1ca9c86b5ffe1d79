import type { NextFunction, Request } from "express";
import { rateLimit } from "express-rate-limit";
import { AppError } from "../shared/errors.ts";
import type { Res } from "./types.ts";

/**
 * A fixed window per authenticated caller (not per IP: many merchants share proxies), kept in this
 * process's memory. Behind several instances each counts its own share.
 */
export function perCallerRateLimit(perMinute: number) {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: false,
    legacyHeaders: false,
    keyGenerator: (_req: Request, res: Res) => res.locals.principal.name,
    handler: (req: Request, _res: Res, next: NextFunction) => {
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + 60_000) - Date.now()) / 1000));
      next(new AppError("rate_limited", `Too many requests: at most ${perMinute} a minute. Retry in ${seconds} s.`, [], { "Retry-After": String(seconds) }));
    },
  });
}

function tooMany(message: string, seconds: number): AppError {
  return new AppError("rate_limited", message, [], { "Retry-After": String(Math.max(1, Math.ceil(seconds))) });
}

/** A body above this is a heavy request: parsing, validating and storing it holds the CPU and a database connection for long. */
export const HEAVY_BODY_BYTES = 16 * 1024;

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
    const isHeavy = heavyLimit > 0 && Number(req.headers["content-length"] ?? 0) > HEAVY_BODY_BYTES;
    if (limit > 0 && (running.get(key) ?? 0) >= limit) return next(tooMany(`Too many requests in progress: at most ${limit} at once per caller. Retry in 1 s.`, 1));
    if (isHeavy && (heavy.get(key) ?? 0) >= heavyLimit) {
      return next(tooMany(`Too many large requests in progress: at most ${heavyLimit} with a body over ${HEAVY_BODY_BYTES} bytes at once per caller. Retry in 1 s.`, 1));
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
 * At most `bytesPerMinute` of request bodies per caller in a fixed minute window, counted from
 * Content-Length before the body is read, so that one caller's heavy writes cannot take the CPU that
 * parsing and validating them costs from everyone else.
 */
export function perCallerBodyBytes(bytesPerMinute: number, now = () => Date.now()) {
  const windows = new Map<string, { start: number; bytes: number }>();
  return (req: Request, res: Res, next: NextFunction) => {
    const size = Number(req.headers["content-length"] ?? 0);
    if (!Number.isFinite(size) || size <= 0) return next();
    const key = res.locals.principal.name;
    const t = now();
    let w = windows.get(key);
    if (!w || t - w.start >= 60_000) {
      // Expired windows of other callers go with the first new one: the map never outgrows the active callers.
      for (const [k, v] of windows) if (t - v.start >= 60_000) windows.delete(k);
      windows.set(key, (w = { start: t, bytes: 0 }));
    }
    if (w.bytes + size > bytesPerMinute) {
      const wait = (w.start + 60_000 - t) / 1000;
      return next(tooMany(`Too many request bytes: at most ${bytesPerMinute} a minute per caller. Retry in ${Math.max(1, Math.ceil(wait))} s.`, wait));
    }
    w.bytes += size;
    next();
  };
}
