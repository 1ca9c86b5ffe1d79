import type { NextFunction, Request } from "express";
import type { Authenticator, Principal } from "../accounts/domain.ts";
import { SESSION_COOKIE } from "../portal/sessions.ts";
import { AppError, invalid } from "../shared/errors.ts";
import type { Res } from "./express.ts";

const ROLE_OF_SCOPE = { merchant: "merchant", warehouse: "operator" } as const;

function parseBasic(header: string | undefined): { user: string; secret: string } | undefined {
  const m = /^Basic ([A-Za-z0-9+/=]{1,2000})$/i.exec(header ?? "");
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) return undefined;
  return { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The value of one cookie in a Cookie header; undefined when absent. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

// The one operation a visitor may call: signing in to the portal.
const isSignIn = (req: Request) => req.method === "POST" && req.path === "/portal_sessions/_create";
const SAFE_METHODS = new Set(["GET", "HEAD"]);

/**
 * Every request under the base path needs valid credentials, before its body is even parsed: HTTP Basic,
 * or (without an Authorization header) a portal session cookie, whose writes also need the CSRF header.
 */
export function authenticate(auth: Authenticator, portal: PortalSessions) {
  return async (req: Request, res: Res, next: NextFunction) => {
    // Node keeps only the first of repeated Authorization headers: refuse the ambiguity instead.
    if ((req.headersDistinct.authorization?.length ?? 0) > 1) {
      throw invalid([{ path: "/headers/authorization", message: "send one Authorization header", code: "duplicate" }]);
    }
    // trust proxy is off: the address is the peer's, which a client cannot forge.
    const address = req.socket.remoteAddress ?? "unknown";
    if (req.headers.authorization === undefined) {
      if (isSignIn(req)) {
        res.locals.principal = { role: "visitor", id: address, name: `V-${address}` };
        return next();
      }
      const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
      if (token !== undefined) {
        const principal = await portal.principal(token);
        if (!principal) throw new AppError("unauthorized", "Your portal session has ended: sign in again.");
        if (!SAFE_METHODS.has(req.method)) portal.checkCsrf(principal, req.header("x-csrf-token"));
        // The validator's cookieAuth check reads req.cookies.
        (req as Request & { cookies: Record<string, string> }).cookies = { [SESSION_COOKIE]: token };
        res.locals.principal = principal;
        return next();
      }
    }
    const creds = parseBasic(req.headers.authorization);
    const principal = creds ? await auth.verify(creds.user, creds.secret, address) : undefined;
    if (!principal) throw new AppError("unauthorized", "Valid credentials are required: HTTP Basic with M-<merchant_id> or W-<operator_id>.");
    res.locals.principal = principal;
    next();
  };
}

/** How the HTTP edge checks portal sessions (portal/sessions.ts, bound to the database in app.ts). */
export interface PortalSessions {
  principal(token: string): Promise<Principal | undefined>;
  checkCsrf(principal: Principal, header: string | undefined): void;
}

/**
 * The spec lists the roles allowed on each operation as the basicAuth requirement's role names
 * (`merchant`, `warehouse`; OpenAPI 3.1 allows roles there). The validator calls this per operation.
 */
export function roleCheck(req: Request, scopes: string[]): true {
  const principal = (req.res as Res).locals.principal;
  if (principal.role === "visitor") throw Object.assign(new Error("Sign in first."), { status: 401 });
  if (scopes.length === 0) return true;
  const allowed = scopes.map((s) => ROLE_OF_SCOPE[s as keyof typeof ROLE_OF_SCOPE]);
  if (allowed.includes(principal.role)) return true;
  const who = scopes.map((s) => (s === "warehouse" ? "warehouse operators" : "merchants")).join(" and ");
  throw Object.assign(new Error(`Only ${who} may do this.`), { status: 403 });
}

/** cookieAuth: the request was authenticated by a portal session (not by Basic credentials), in a role allowed here. */
export function sessionRoleCheck(req: Request, scopes: string[]): true {
  if (!(req.res as Res).locals.principal.session) throw Object.assign(new Error("This operation needs a portal session."), { status: 401 });
  return roleCheck(req, scopes);
}
