// Who is calling: every request under the base path is given a principal before its body is even parsed,
// or refused with 401.
import type { NextFunction, Request, Response as Res } from "express";
import type { Authenticator, Principal } from "../accounts/domain.ts";
import { AppError, invalid } from "../shared/errors.ts";
import { parseBasic } from "./basic.ts";
import { checkCsrf, cookieValue, SESSION_COOKIE } from "./sessions.ts";

// The one operation a visitor may call: signing in to the portal.
const isSignIn = (req: Request) => req.method === "POST" && req.path === "/portal_sessions/_create";
const SAFE_METHODS = new Set(["GET", "HEAD"]);

/**
 * HTTP Basic, or (without an Authorization header) a portal session cookie, whose writes also need the CSRF
 * header. Sets `res.locals.principal`. `sessions` finds a live session's principal (sessions.ts; the mock's own
 * in tools/mock), `auth` verifies Basic credentials.
 */
export function authenticate(
  auth: Pick<Authenticator, "verify">,
  sessions: (token: string) => Promise<Principal | undefined>,
) {
  return async (req: Request, res: Res, next: NextFunction) => {
    // Node keeps only the first of repeated Authorization headers: refuse the ambiguity instead.
    if ((req.headersDistinct.authorization?.length ?? 0) > 1) {
      throw invalid([{ path: "/headers/authorization", message: "send one Authorization header", code: "duplicate" }]);
    }
    // The peer's address, or the client's as a proxy named by TRUST_PROXY forwarded it: nothing else can forge it.
    const address = req.ip ?? "unknown";
    if (req.headers.authorization === undefined) {
      if (isSignIn(req)) {
        res.locals.principal = { role: "visitor", id: address, name: `V-${address}` };
        return next();
      }
      const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
      if (token !== undefined) {
        const principal = await sessions(token);
        if (!principal) throw new AppError("unauthorized", "Your portal session has ended: sign in again.");
        if (!SAFE_METHODS.has(req.method)) checkCsrf(principal, req.header("x-csrf-token"));
        res.locals.principal = principal;
        return next();
      }
    }
    const creds = parseBasic(req.headers.authorization);
    const principal = creds ? await auth.verify(creds.user, creds.secret, address) : undefined;
    if (!principal)
      throw new AppError(
        "unauthorized",
        "Valid credentials are required: HTTP Basic with M-<merchant_id> or W-<operator_id>.",
      );
    res.locals.principal = principal;
    next();
  };
}
