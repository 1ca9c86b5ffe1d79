// What a webhook endpoint's schema cannot say, run by the request validator with the schema check
// (webhookValueRules in http.ts), reading the body loosely as every value rule does. Whether its host may be a
// private address is the operator's setting: that check stays in endpoints.ts.
import type { ErrorDetail } from "../shared/errors.ts";
import { fieldOf } from "../shared/loose.ts";
import { urlFormProblems } from "./url-safety.ts";

/** The URL's form, each reason its own code (credentials in it, a scheme other than http/https, no host...). */
export function endpointUrlProblems(body: unknown): ErrorDetail[] {
  const url = fieldOf(body, "url");
  return typeof url === "string" ? urlFormProblems(url) : [];
}
