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
