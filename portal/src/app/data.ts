// The one data layer: every request goes through `unwrap`, which turns the typed client's answer into data or
// an ApiError, and a 401 into the signed-out state (once, here, for every view). TanStack Query caches.
import { QueryClient, queryOptions } from "@tanstack/react-query";
import type { ErrorBody } from "../../../client/index.ts";
import { retryAfterMs } from "../../../server/shared/retry-after.ts";
import { apiClient } from "../api.ts";
import type { PortalSession } from "../../../generated/api.ts";
import type { AnswerCode } from "../words/codes.ts";
import type { Form, Problems, Words } from "../words/index.ts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> | undefined,
    /** The answer's Retry-After, in milliseconds from when it came (absent when it had none). */
    readonly retryAfterMs?: number,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}

/** Thrown when the service cannot be reached at all (network down, server stopped). */
export class Unreachable extends Error {}

/** A refusal the portal has put in the person's words already (from the catalogue), to be said as it is. */
export class Refusal extends Error {}

/** An error body as the words catalogue reads it: the API's, or one of the portal's own codes (codes.ts PortalCode). */
export type AnswerBody = Omit<Partial<ErrorBody>, "code"> & { code?: AnswerCode };

/** The error body a failed request stands for: an ApiError's own, or one that says no answer came. */
export function bodyOf(error: unknown): AnswerBody | undefined {
  if (!error) return undefined;
  if (error instanceof ApiError) return error.body ?? { code: "unknown", details: [] };
  if (error instanceof Unreachable) return { code: "unreachable", details: [] };
  return { code: "unexpected_response", details: [] };
}

/**
 * The one way from a failed request to the words a person reads: the answer's sentence and each field's message, in
 * the catalogue's words of the page's language, with the limits of `form` (the operationId); a Refusal as it is.
 * Shown with parts/fields.tsx ProblemBanner (and a Field beside each field it names).
 */
export function problemsOf(w: Words, error: unknown, form?: Form): Problems | undefined {
  if (!error) return undefined;
  if (error instanceof Refusal) return { message: error.message, fields: {} };
  // eslint-disable-next-line no-restricted-syntax -- the one way
  return w.problems(bodyOf(error), form);
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not get better by asking again; a lost connection may.
      retry: (count, e) => e instanceof Unreachable && count < 2,
      refetchOnWindowFocus: true,
      staleTime: 5_000,
    },
    mutations: { retry: false },
  },
});

export const SESSION_KEY = ["session"] as const;
// Not a secret: only whether this browser signed in, so that a signed-out page does not ask (and log a 401).
const HINT = "logistics-portal:signed-in";
export const hint = {
  get: () => window.localStorage.getItem(HINT) === "1",
  set: (on: boolean) => (on ? window.localStorage.setItem(HINT, "1") : window.localStorage.removeItem(HINT)),
};

/** Why this browser was signed out, when the sign-in page should say so (taken once by it). */
export type SignOutReason = "removedYourself";
let reason: SignOutReason | undefined;
export const takeSignOutReason = (): SignOutReason | undefined => {
  const why = reason;
  reason = undefined;
  return why;
};

export function signedOut(why?: SignOutReason): void {
  if (why) reason = why;
  hint.set(false);
  queryClient.setQueryData(SESSION_KEY, null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer; an ApiError otherwise (a 401 also signs the page out). */
export async function unwrap<T>(request: Promise<Answer<T>>): Promise<T> {
  let r: Answer<T>;
  try {
    r = await request;
  } catch (e) {
    // A query TanStack Query cancelled (its signal): not a failure, nothing to say.
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new Unreachable("unreachable");
  }
  if (r.response.status === 401) {
    signedOut();
    throw new ApiError(401, r.error as ErrorBody);
  }
  if (!r.response.ok || r.data === undefined)
    throw new ApiError(r.response.status, r.error as ErrorBody, retryAfterMs(r.response.headers.get("retry-after")));
  return r.data;
}

/** Who is signed in: one query every view reads (App.tsx useQuery(sessionQuery())), asked only where this browser
 * signed in. A reload keeps the cookie, not the CSRF token: the session answer gives it again. */
export function sessionQuery() {
  return queryOptions({
    queryKey: SESSION_KEY,
    queryFn: async ({ signal }): Promise<PortalSession | null> => {
      if (!hint.get()) return null;
      try {
        return await unwrap(apiClient().GET("/portal_sessions/current", { signal }));
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: Infinity,
  });
}
