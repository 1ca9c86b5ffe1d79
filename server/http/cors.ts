// CORS, whose one owner is the publishable keys' origins: a browser page may call the API only with a publishable
// key, only the operations that accept one, and only from an origin its key lists. Portal pages are same-origin
// and need none; an API secret never belongs in a browser, so Basic callers get no CORS headers at all.
import type { NextFunction, Request, RequestHandler } from "express";
import { specDocument } from "../shared/spec-document.ts";
import { AppError } from "../shared/errors.ts";
import type { Res } from "./express.ts";

/** In an origins list: every origin (the mock's keys only; a merchant's origins are checked by the spec's pattern). */
export const ANY_ORIGIN = "*";

/** How long a browser may keep a preflight's answer: a key's new origin works after this at worst. */
const PREFLIGHT_MAX_AGE_S = 600;
/** What a page may read of an answer besides the simple headers. */
const EXPOSED = "Retry-After, X-Request-Id";

/** The spec paths (below the base path) with an operation that a publishable key may call, and their methods. */
function browserPaths(): Map<string, string[]> {
  const doc = specDocument() as {
    paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
  };
  const paths = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op?.security?.some((r) => "publishableKey" in r)) {
        paths.set(path, [...(paths.get(path) ?? []), method.toUpperCase()]);
      }
    }
  }
  return paths;
}

/**
 * A preflight (OPTIONS with `Origin` and `Access-Control-Request-Method`): allowed for an operation a publishable
 * key may call, from an origin some working key lists (it carries no key, so that is all it can know); refused
 * there, 403 without CORS headers, so the browser sends nothing. Other OPTIONS requests pass on (405 as before).
 */
export function preflight(isListed: (origin: string) => Promise<boolean>): RequestHandler {
  const paths = browserPaths();
  return async (req: Request, res: Res, next: NextFunction) => {
    const origin = req.headers.origin;
    const wanted = req.headers["access-control-request-method"];
    if (req.method !== "OPTIONS" || origin === undefined || wanted === undefined) return next();
    res.setHeader("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
    const methods = paths.get(req.path);
    // An operation no publishable key may call: as before, a method the resource lacks (405), no CORS headers.
    if (!methods) return next();
    if (!methods.includes(String(wanted).toUpperCase()) || !(await isListed(origin))) {
      throw new AppError("access_denied", `No publishable key allows pages of ${origin.slice(0, 200)}.`);
    }
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Allow-Methods", [...methods, "HEAD"].join(", "));
    res.setHeader("Access-Control-Allow-Headers", "Authorization");
    res.setHeader("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_S));
    res.status(204).end();
  };
}

/**
 * After authentication: a request made with a publishable key from a page (`Origin` sent) passes only from an
 * origin its key lists, and its answer, errors included, carries the CORS headers for that origin. A request
 * without `Origin` is not from a page: the key's other limits hold (an `Origin` header can be forged outside a
 * browser anyway). Refused: 403 without CORS headers, so the page reads nothing.
 */
export function keyOrigins(req: Request, res: Res, next: NextFunction): void {
  const key = res.locals.principal.publishable;
  if (!key) return next();
  res.setHeader("Vary", "Origin");
  const origin = req.headers.origin;
  if (origin === undefined) return next();
  if (!key.origins.includes(origin) && !key.origins.includes(ANY_ORIGIN)) {
    return next(
      new AppError(
        "access_denied",
        `This publishable key does not allow pages of ${origin.slice(0, 200)}: add the origin to the key's origins.`,
      ),
    );
  }
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.setHeader("Access-Control-Expose-Headers", EXPOSED);
  next();
}
