// Requests that no verified caller answers for are counted per client address: a path or method that matches no
// operation (404, 405), a request without credentials or with wrong ones (401), a CORS preflight. Before this they
// were outside every limit (the caller limits count verified callers only, or a stranger could spend a merchant's
// allowance by naming it): unauthenticated pipelined 404s took 28x another merchant's p50. Their bucket is the
// address's own, apart from the merchants at that address (an office's proxy), whose credentials count for them.
import type { NextFunction, Request } from "express";
import type { SharedWindowLimit } from "../db/counters.ts";
import { AppError } from "../shared/errors.ts";
import { toAppError } from "./errors.ts";
import type { Res } from "./express.ts";

/** The refusals a request is charged to its address for (when it was not charged before it got that far). */
const CHARGED = new Set(["not_found", "method_not_allowed", "unauthorized"]);

/** The client's address as TRUST_PROXY tells it (Express's req.ip): the key of every per-address limit. */
export const clientAddress = (req: Request): string => req.ip ?? "unknown";

const isPreflight = (req: Request) =>
  req.method === "OPTIONS" &&
  req.headers.origin !== undefined &&
  req.headers["access-control-request-method"] !== undefined;

export type AddressLimits = ReturnType<typeof addressLimits>;

export function addressLimits(limit: SharedWindowLimit) {
  const refusal = (wait: number) =>
    new AppError(
      "rate_limited",
      `Too many requests from this address that match no operation or carry no valid credentials: at most ${limit.limit} a minute. Retry in ${wait} s.`,
      [],
      { "Retry-After": String(Math.max(1, wait)) },
    );

  /**
   * First of all, before the route is matched (what a 404 costs): a request without credentials from an address
   * whose minute is spent is refused at once; a preflight is charged here (it is answered before any operation).
   * A request without credentials that then succeeds (a public operation: signing in, the quote keys) is not
   * charged; one that is refused is, by `refusals` below.
   */
  const early = (req: Request, res: Res, next: NextFunction) => {
    if (req.headers.authorization !== undefined || req.headers.cookie !== undefined) return next();
    const key = clientAddress(req);
    const preflight = isPreflight(req);
    const answer = (wait: number) => {
      if (wait > 0) return next(refusal(wait));
      if (preflight) res.locals.addressCharged = true;
      next();
    };
    const now = preflight ? limit.takeNow(key) : limit.spentNow(key);
    if (now !== undefined) return answer(now);
    (preflight ? limit.take(key) : limit.spent(key)).then(answer, next);
  };

  /**
   * An error step after the checks: a 404, 405 or 401 is charged to the address, and past the address's minute
   * becomes a 429 (paced then like every refusal: refusal-pace.ts). Credentials on a wrong path are charged here
   * too: they were never verified, so they name nobody.
   */
  const refusals = (err: unknown, req: Request, res: Res, next: NextFunction) => {
    // The validator's 404 and 405 carry a status only.
    const code = toAppError(err)?.code;
    if (code === undefined || !CHARGED.has(code) || res.locals.addressCharged) return next(err);
    res.locals.addressCharged = true;
    const key = clientAddress(req);
    const answer = (wait: number) => next(wait > 0 ? refusal(wait) : err);
    const now = limit.takeNow(key);
    if (now !== undefined) return answer(now);
    limit.take(key).then(answer, () => next(err));
  };
  return { early, refusals };
}
