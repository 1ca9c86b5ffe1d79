// The portal's only way to the service: the typed client package, on the same origin. The session cookie is
// HttpOnly (the browser sends it; this code never sees it); the CSRF token lives in memory only.
import { formatDate, pickLocale, problemsIn, type Form } from "./words/index.ts";
import { browserLanguages } from "./words/lang.ts";
import { createLogisticsClient, type components, type ErrorBody, type LogisticsClient } from "../../client/index.ts";
import { BASE_PATH } from "../../generated/base-path.ts";

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

/** Field messages of an error answer by JSON pointer (`/body/name`), and the sentence for the rest, in the
 * words of the browser's language (the catalogue in words/); `form` is the operationId, for its limits. */
export interface Problems {
  message: string;
  fields: Record<string, string>;
}

export function problemsOf(error: unknown, form?: Form): Problems | undefined {
  return problemsIn(browserSpeaker(), error, form);
}

/** Problems under a prefix, re-rooted: `/body/price_lists/0/name` under `/body/price_lists/0` is `/body/name`. */
export function rebase(p: Problems | undefined, from: string, to = "/body"): Problems | undefined {
  if (!p) return undefined;
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.fields)) {
    if (k === from || k.startsWith(`${from}/`)) fields[to + k.slice(from.length)] = v;
    else fields[k] = v;
  }
  return { message: p.message, fields };
}

/** One date format everywhere: the browser's own locale, medium date and short time. */
export const formatTime = (ts: string | null | undefined) => formatDate(browserSpeaker(), ts);

const browserSpeaker = () => pickLocale(browserLanguages());
