import * as OpenApiValidator from "express-openapi-validator";
import type { RequestHandler } from "express";
import { roleCheck } from "./auth.ts";

/**
 * The validator's middlewares in two stages, so that the body is read knowing the operation:
 * `match` finds the operation (404/405) and checks the caller's role (403); `validate` checks
 * parameters and the parsed body, and the responses.
 */
export function validator(specPath: string): { match: RequestHandler[]; validate: RequestHandler[] } {
  const all = OpenApiValidator.middleware({
    apiSpec: specPath,
    // allErrors: a merchant fixing a request wants every offending field at once; bodies are capped at 1 MB.
    validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false, allErrors: true },
    validateResponses: { removeAdditional: false },
    validateSecurity: { handlers: { basicAuth: (req, scopes) => roleCheck(req, scopes) } },
    validateFormats: true,
    ajvFormats: { mode: "full" },
    ignoreUndocumented: false,
    // JSON only: bodies are read by readJsonBody.
    fileUploader: false,
  }) as RequestHandler[];
  // Named functions of express-openapi-validator 5.x; a release that renames them fails here at start.
  const split = all.findIndex((mw) => mw.name === "requestMiddleware");
  const names = all.map((mw) => mw.name).join(",");
  if (names !== "pathParamsMiddleware,metadataMiddleware,securityMiddleware,requestMiddleware,responseMiddleware") {
    throw new Error(`express-openapi-validator changed its middlewares (${names}): review server/http/validator.ts`);
  }
  return { match: all.slice(0, split), validate: all.slice(split) };
}
