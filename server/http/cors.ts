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
 * key may call, from any origin. It carries no key, so it cannot know whether the key the page will send lists the
 * page's origin: the request itself is checked (`keyOrigins`), and its refusal is one the page can read, so that the
 * checkout picker can tell a refused origin (the shop must add it to its key) from an outage (trying again helps).
 * Another method there: 403 without CORS headers, so the browser sends nothing. Other OPTIONS requests pass on
 * (405 as before).
 */
export function preflight(): RequestHandler {
  const paths = browserPaths();
  return (req: Request, res: Res, next: NextFunction) => {
    const origin = req.headers.origin;
    const wanted = req.headers["access-control-request-method"];
    if (req.method !== "OPTIONS" || origin === undefined || wanted === undefined) return next();
    res.setHeader("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
    const methods = paths.get(req.path);
    // An operation no publishable key may call: as before, a method the resource lacks (405), no CORS headers.
    if (!methods) return next();
    if (!methods.includes(String(wanted).toUpperCase())) {
      throw new AppError("access_denied", `Pages may call ${req.path} only with ${methods.join(", ")}.`);
    }
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Allow-Methods", [...methods, "HEAD"].join(", "));
    res.setHeader("Access-Control-Allow-Headers", "Authorization");
    res.setHeader("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_S));
    res.status(204).end();
  };
}

/** A publishable key in the Authorization header, the one Bearer credential (`authenticate` checks it). */
const PUBLISHABLE = /^Bearer /i;

/**
 * Before authentication: a page's request with a publishable key, to an operation a key may call, may read the
 * refusal if there is one (401: the key is not known or was revoked; 403: the key does not list the page's origin),
 * never an answer with data: that passes `keyOrigins` only from a listed origin. No credentials are involved (no
 * `Access-Control-Allow-Credentials`), and no other caller gets CORS headers.
 */
export function readableRefusals(): RequestHandler {
  const paths = browserPaths();
  return (req: Request, res: Res, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin !== undefined && paths.has(req.path) && PUBLISHABLE.test(req.headers.authorization ?? "")) {
      res.setHeader("Vary", "Origin");
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Access-Control-Expose-Headers", EXPOSED);
    }
    next();
  };
}

/**
 * After authentication: a request made with a publishable key from a page (`Origin` sent) passes only from an
 * origin its key lists, and its answer, errors included, carries the CORS headers for that origin. A request
 * without `Origin` is not from a page: the key's other limits hold (an `Origin` header can be forged outside a
 * browser anyway). Refused: 403 that the page can read (`readableRefusals`), naming its origin and what to do.
 */
export function keyOrigins(req: Request, res: Res, next: NextFunction): void {
  const key = res.locals.principal.publishable;
  if (!key) {
    // Only a publishable key's page reads answers across origins.
    res.removeHeader("Access-Control-Allow-Origin");
    res.removeHeader("Access-Control-Expose-Headers");
    return next();
  }
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
