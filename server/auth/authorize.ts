// Roles per operation: whether the principal authenticate() found may call the operation the validator matched.
import type { NextFunction, Request, Response as Res } from "express";
import type { Principal } from "../accounts/domain.ts";
import { AppError } from "../shared/errors.ts";

const PUBLISHABLE_REFUSAL = () =>
  new AppError(
    "access_denied",
    "A publishable key may only ask for shipping options and look up pickup points; call this operation from your backend with your API secret.",
  );

const ROLE_OF_SCOPE = { merchant: "merchant", warehouse: "operator" } as const;

/** An operation's security: any one requirement (OR) whose schemes all pass (AND); `{}` lets anyone in. */
export type SecurityRequirement = Record<string, string[]>;

/**
 * The spec lists the roles allowed on each operation as the requirement's role names (`merchant`,
 * `warehouse`; OpenAPI 3.1 allows roles there): basicAuth for callers with credentials, cookieAuth for
 * portal sessions; stationCookieAuth names the warehouse users' roles (`receiver`, `supervisor`) allowed with a
 * station session. Checked against the principal `authenticate` found, after the validator matched
 * the operation, with the validator's answers: the first unmet requirement's 403, else its 401. A session of a kind the
 * operation accepts no session of (a station session on a merchant's operation, a portal session on the
 * warehouse's) is 403: a valid principal outside its role. (The validator's own security step ran every requirement
 * and threw an Error for each that failed: 5% of a GET's CPU.)
 */
export function authorize(defaultSecurity: SecurityRequirement[]) {
  return (req: Request, res: Res, next: NextFunction) => {
    const op = (req as Request & { openapi?: { schema: { security?: SecurityRequirement[] } } }).openapi;
    if (!op) return next();
    const requirements = op.schema.security ?? defaultSecurity;
    if (requirements.length === 0) return next();
    const principal: Principal = res.locals.principal;
    const session = principal.session;
    if (session && !requirements.some((r) => SCHEME_OF_SESSION[session.cookie] in r))
      return next(new AppError("access_denied", SESSION_REFUSAL[session.cookie]));
    let first: AppError | undefined;
    for (const requirement of requirements) {
      const failure = unmet(requirement, principal);
      if (!failure) return next();
      // A requirement that knew the caller and refused its role (403) says more than one that did not know it (401).
      if (!first || (first.code === "unauthorized" && failure.code !== "unauthorized")) first = failure;
    }
    next(first);
  };
}

const SCHEME_OF_SESSION = { portal_session: "cookieAuth", station_session: "stationCookieAuth" } as const;
const SESSION_REFUSAL = {
  portal_session: "A merchant portal session may not call this operation.",
  station_session: "A warehouse user's station session may not call this operation.",
} as const;

function unmet(requirement: SecurityRequirement, principal: Principal): AppError | undefined {
  for (const [scheme, scopes] of Object.entries(requirement)) {
    // basicAuth wants Basic credentials, cookieAuth a portal session, stationCookieAuth a station session,
    // publishableKey a publishable key.
    const publishable = principal.publishable !== undefined;
    const session = principal.session;
    const authenticated =
      principal.role !== "visitor" &&
      (scheme === "cookieAuth"
        ? session?.cookie === "portal_session"
        : scheme === "stationCookieAuth"
          ? session?.cookie === "station_session"
          : scheme === "publishableKey"
            ? publishable
            : scheme === "basicAuth" && session === undefined && !publishable);
    if (!authenticated && publishable) return PUBLISHABLE_REFUSAL();
    if (!authenticated) return new AppError("unauthorized", "Valid credentials are required.");
    if (scheme === "stationCookieAuth") {
      if (!scopes.includes(session!.userRole))
        return new AppError("access_denied", `Only warehouse users of role ${scopes.join(" or ")} may do this.`);
      continue;
    }
    if (scopes.length && !scopes.some((s) => ROLE_OF_SCOPE[s as keyof typeof ROLE_OF_SCOPE] === principal.role)) {
      const who = scopes.map((s) => (s === "warehouse" ? "warehouse operators" : "merchants")).join(" and ");
      return new AppError("access_denied", `Only ${who} may do this.`);
    }
  }
  return undefined;
}

/**
 * What a publishable key may not ask for on the operations it may call: `explain=true` traces every rule of the
 * merchant's price lists, which are the merchant's business, not a shopper's (and a key is public). After the
 * validator, which has made `explain` a boolean.
 */
export function publishableQueryLimits(req: Request, res: Res, next: NextFunction) {
  const principal: Principal | undefined = res.locals.principal;
  if (principal?.publishable && req.query.explain === (true as unknown))
    return next(
      new AppError(
        "access_denied",
        "A publishable key may not ask for explain: the explanation shows the merchant's price lists; ask with your API secret from your backend.",
      ),
    );
  next();
}
