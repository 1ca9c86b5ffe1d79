import type { NextFunction, Request } from "express";
import type { Authenticator } from "../accounts/domain.ts";
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

/** Every request under the base path needs valid credentials, before its body is even parsed. */
export function authenticate(auth: Authenticator) {
  return async (req: Request, res: Res, next: NextFunction) => {
    // Node keeps only the first of repeated Authorization headers: refuse the ambiguity instead.
    if ((req.headersDistinct.authorization?.length ?? 0) > 1) {
      throw invalid([{ path: "/headers/authorization", message: "send one Authorization header", code: "duplicate" }]);
    }
    const creds = parseBasic(req.headers.authorization);
    // trust proxy is off: the address is the peer's, which a client cannot forge.
    const address = req.socket.remoteAddress ?? "unknown";
    const principal = creds ? await auth.verify(creds.user, creds.secret, address) : undefined;
    if (!principal) throw new AppError("unauthorized", "Valid credentials are required: HTTP Basic with M-<merchant_id> or W-<operator_id>.");
    res.locals.principal = principal;
    next();
  };
}

/**
 * The spec lists the roles allowed on each operation as the basicAuth requirement's role names
 * (`merchant`, `warehouse`; OpenAPI 3.1 allows roles there). The validator calls this per operation.
 */
export function roleCheck(req: Request, scopes: string[]): true {
  const principal = (req.res as Res).locals.principal;
  if (scopes.length === 0) return true;
  const allowed = scopes.map((s) => ROLE_OF_SCOPE[s as keyof typeof ROLE_OF_SCOPE]);
  if (allowed.includes(principal.role)) return true;
  const who = scopes.map((s) => (s === "warehouse" ? "warehouse operators" : "merchants")).join(" and ");
  throw Object.assign(new Error(`Only ${who} may do this.`), { status: 403 });
}
