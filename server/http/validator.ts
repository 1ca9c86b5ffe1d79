import * as OpenApiValidator from "express-openapi-validator";
import { roleCheck } from "./auth.ts";

export function validator(specPath: string) {
  return OpenApiValidator.middleware({
    apiSpec: specPath,
    // allErrors: a merchant fixing a request wants every offending field at once; bodies are capped at 1 MB.
    validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false, allErrors: true },
    validateResponses: { removeAdditional: false },
    validateSecurity: { handlers: { basicAuth: (req, scopes) => roleCheck(req, scopes) } },
    validateFormats: true,
    ajvFormats: { mode: "full" },
    ignoreUndocumented: false,
  });
}
