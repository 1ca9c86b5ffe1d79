// Who is calling: every request under the base path is given a principal before its body is even parsed,
// or refused with 401.
import type { NextFunction, Request, Response as Res } from "express";
import { ACCOUNT_ID, type Authenticator, type Principal } from "../accounts/domain.ts";
import { AppError, invalid } from "../shared/errors.ts";
import { matchedOperation } from "../http/express.ts";
import { parseBasic } from "./basic.ts";
import { checkCsrf, checkPasswordChanged, cookieValue, type SessionCookie } from "./session-kit.ts";

const securityOf = (req: Request) =>
  (matchedOperation(req) as { security?: Record<string, unknown>[] } | undefined)?.security;
// What a visitor may call: an operation whose security is `[]` (signing in to the portal, the quote keys).
const isPublic = (req: Request) => securityOf(req)?.length === 0;
// Which session cookie is read first: the one of the sessions the operation accepts (a browser signed in to the
// portal and to a station sends both), else the other, whose principal authorize() then refuses with 403.
const PORTAL_FIRST: SessionCookie[] = ["portal_session", "station_session"];
const STATION_FIRST: SessionCookie[] = ["station_session", "portal_session"];
const cookiesOf = (req: Request) =>
  securityOf(req)?.some((r) => "stationCookieAuth" in r) ? STATION_FIRST : PORTAL_FIRST;
const SAFE_METHODS = new Set(["GET", "HEAD"]);
const BEARER = /^Bearer (\S{1,200})$/i;

/** How many Authorization headers came: from the raw list, without building `headersDistinct` for every header. */
function authorizationHeaders(raw: string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === "authorization") count++;
  }
  return count;
}

/**
 * HTTP Basic, a publishable key (`Bearer pk_...`), or (without an Authorization header) a session cookie (the
 * portal's or a station's), whose writes also need the CSRF header, and which may do little else than change its
 * password while it must (session-kit.ts). Sets `res.locals.principal`. `sessions` finds a live session's principal
 * by cookie (auth/sessions.ts, warehouse/sessions.ts; the mock's own in tools/mock), `auth` verifies Basic
 * credentials.
 */
export function authenticate(
  auth: Pick<Authenticator, "verify" | "verifyPublishable"> & Partial<Pick<Authenticator, "knownBasic">>,
  sessions: Record<SessionCookie, (token: string) => Promise<Principal | undefined>>,
) {
  const known = auth.knownBasic?.bind(auth);
  return (req: Request, res: Res, next: NextFunction) => {
    // Node keeps only the first of repeated Authorization headers: refuse the ambiguity instead.
    if (authorizationHeaders(req.rawHeaders) > 1) {
      throw invalid([{ path: "/headers/authorization", message: "send one Authorization header", code: "duplicate" }]);
    }
    const address = clientAddress(req);
    // Credentials verified moments ago: the principal at once, without a promise (most requests).
    const header = req.headers.authorization;
    // (A publishable key is never among them: its header is not hashed for nothing.)
    const principal =
      header !== undefined && known !== undefined && !BEARER.test(header) ? known(header, address) : undefined;
    if (principal !== undefined) {
      res.locals.principal = principal;
      return next();
    }
    return identify(req, res, next, address);
  };

  async function identify(req: Request, res: Res, next: NextFunction, address: string) {
    if (req.headers.authorization === undefined) {
      if (isPublic(req)) {
        res.locals.principal = { role: "visitor", id: address, name: `V-${address}` };
        return next();
      }
      const cookie = cookiesOf(req).find((name) => cookieValue(req.headers.cookie, name) !== undefined);
      if (cookie !== undefined) {
        const principal = await sessions[cookie](cookieValue(req.headers.cookie, cookie)!);
        if (!principal) throw new AppError("unauthorized", "Your session has ended: sign in again.");
        if (!SAFE_METHODS.has(req.method)) checkCsrf(principal, req.header("x-csrf-token"));
        // After an admin reset the password: only the session itself, signing out and a new password (403).
        checkPasswordChanged(principal, matchedOperation(req)?.operationId);
        res.locals.principal = principal;
        return next();
      }
    }
    const bearer = BEARER.exec(req.headers.authorization ?? "");
    if (bearer) {
      const principal = await auth.verifyPublishable(bearer[1]!, address);
      if (!principal) throw new AppError("unauthorized", "This publishable key is not known or was revoked.");
      res.locals.principal = principal;
      return next();
    }
    const creds = parseBasic(req.headers.authorization);
    const principal = creds
      ? await auth.verify(creds.user, creds.secret, address, req.headers.authorization)
      : undefined;
    if (!principal)
      throw new AppError(
        "unauthorized",
        // A well-formed name: which of the two was wrong is never said (that would confirm which names exist).
        creds && wellFormedName(creds.user)
          ? "Unknown name or wrong secret: check the user name and secret of your HTTP Basic credentials."
          : "Valid credentials are required: HTTP Basic with M-<merchant_id> or W-<operator_id>.",
      );
    res.locals.principal = principal;
    next();
  }
}

/**
 * The peer's address, or the client's as a proxy named by TRUST_PROXY forwarded it (Express's `req.ip`): nothing
 * else can forge it. Without a trusted proxy that is the socket's own address, read without parsing X-Forwarded-For.
 */
function clientAddress(req: Request): string {
  return (req.app.get("trust proxy") === false ? req.socket.remoteAddress : req.ip) ?? "unknown";
}

/** `M-<merchant_id>` or `W-<operator_id>` with an id of the accounts' form. */
const wellFormedName = (user: string) => /^[MW]-/.test(user) && ACCOUNT_ID.test(user.slice(2));
