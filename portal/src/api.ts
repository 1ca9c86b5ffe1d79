// The portal's only way to the service: the typed client package, on the same origin. The session cookie is
// HttpOnly (the browser sends it; this code never sees it); the CSRF token lives in memory only.
import { createLogisticsClient, type components, type ErrorBody, type LogisticsClient } from "../../client/index.ts";
import { BASE_PATH } from "../../generated/base-path.ts";

// eslint-disable-next-line no-restricted-syntax -- the one name of the spec's schemas: S["Bar"] is Bar
export type S = components["schemas"];
export type Api = LogisticsClient;
export type { ErrorBody };

/** The API's address as this page reaches it (the portal is served by the API, same origin). */
export const BASE_URL = `${window.location.origin}${BASE_PATH}`;

/**
 * A client for the signed-in session. Before sign-in the header still goes out ("-"), so that a 401 carries
 * the service's Session challenge and the browser never opens its Basic credentials dialog.
 */
export function apiClient(csrfToken = "-"): Api {
  return createLogisticsClient({ baseUrl: BASE_URL, headers: { "X-CSRF-Token": csrfToken }, timeoutMs: 20_000 });
}

/** Field messages of an error answer by JSON pointer (`/body/name`), and the sentence for the rest: made by
 * app/data.ts problemsOf, the one way from a failed request to words. */
export type { Problems } from "./words/index.ts";
