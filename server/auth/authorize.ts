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
 * portal sessions. Checked against the principal `authenticate` found, after the validator matched
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
    // basicAuth wants Basic credentials, cookieAuth a portal session, publishableKey a publishable key.
    const publishable = principal.publishable !== undefined;
    const authenticated =
      principal.role !== "visitor" &&
      (scheme === "cookieAuth"
        ? principal.session !== undefined
        : scheme === "publishableKey"
          ? publishable
          : scheme === "basicAuth" && principal.session === undefined && !publishable);
    if (!authenticated && publishable) return PUBLISHABLE_REFUSAL();
    if (!authenticated) return new AppError("unauthorized", "Valid credentials are required.");
    if (scopes.length && !scopes.some((s) => ROLE_OF_SCOPE[s as keyof typeof ROLE_OF_SCOPE] === principal.role)) {
      const who = scopes.map((s) => (s === "warehouse" ? "warehouse operators" : "merchants")).join(" and ");
      return new AppError("access_denied", `Only ${who} may do this.`);
    }
  }
  return undefined;
}
