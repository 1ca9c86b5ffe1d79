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

/** How the HTTP edge checks portal sessions (portal/sessions.ts, bound to the database in app.ts). */
export interface PortalSessions {
  principal(token: string): Promise<Principal | undefined>;
  checkCsrf(principal: Principal, header: string | undefined): void;
}

/** An operation's security: any one requirement (OR) whose schemes all pass (AND); `{}` lets anyone in. */
export type SecurityRequirement = Record<string, string[]>;

/**
 * The spec lists the roles allowed on each operation as the requirement's role names (`merchant`,
 * `warehouse`; OpenAPI 3.1 allows roles there): basicAuth for callers with credentials, cookieAuth for
 * portal sessions. Checked here against the principal `authenticate` found, after the validator matched
 * the operation, with the validator's answers: the first unmet requirement's 401 or 403. (The validator's
 * own security step ran every requirement and threw an Error for each that failed: 5% of a GET's CPU.)
 */
export function authorize(defaultSecurity: SecurityRequirement[]) {
  return (req: Request, res: Res, next: NextFunction) => {
    const op = (req as Request & { openapi?: { schema: { security?: SecurityRequirement[] } } }).openapi;
    if (!op) return next();
    const requirements = op.schema.security ?? defaultSecurity;
    if (requirements.length === 0) return next();
    let first: AppError | undefined;
    for (const requirement of requirements) {
      const failure = unmet(requirement, res.locals.principal);
      if (!failure) return next();
      first ??= failure;
    }
    next(first);
  };
}

function unmet(requirement: SecurityRequirement, principal: Principal): AppError | undefined {
  for (const [scheme, scopes] of Object.entries(requirement)) {
    // basicAuth wants the credentials of an Authorization header, cookieAuth a portal session.
    const authenticated =
      principal.role !== "visitor" &&
      (scheme === "cookieAuth"
        ? principal.session !== undefined
        : scheme === "basicAuth" && principal.session === undefined);
    if (!authenticated) return new AppError("unauthorized", "Valid credentials are required.");
    if (scopes.length && !scopes.some((s) => ROLE_OF_SCOPE[s as keyof typeof ROLE_OF_SCOPE] === principal.role)) {
      const who = scopes.map((s) => (s === "warehouse" ? "warehouse operators" : "merchants")).join(" and ");
      return new AppError("access_denied", `Only ${who} may do this.`);
    }
  }
  return undefined;
}
