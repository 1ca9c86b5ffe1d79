// The users area's data: the list (TanStack Query, through `unwrap`: a 401 signs the page out by itself) and the
// words of a refusal of one user's action.
import { useQuery } from "@tanstack/react-query";
import { problemsOf, type Problems } from "../../api.ts";
import { ApiError, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import type { Form } from "../../words/index.ts";

export const USERS = ["portal_users"] as const;

export function useUsers() {
  const api = useApi();
  return useQuery({ queryKey: USERS, queryFn: () => unwrap(api.GET("/portal_users")) });
}

/** A failed request in words: the API's answer by field (next to the fields), or why nothing came back. */
export function problemsOfError(error: unknown, form: Form): Problems | undefined {
  if (!error) return undefined;
  if (error instanceof ApiError) return problemsOf(error.body ?? {}, form);
  return { message: error instanceof Error ? error.message : "Something went wrong: try again.", fields: {} };
}

/**
 * One sentence for a refused action on a user (change role, remove): the detail's own words when there is one
 * ("This is the shop's only administrator: ..."), which say more than the answer's general sentence.
 */
export function refusalOf(error: unknown, form: Form): string | undefined {
  const p = problemsOfError(error, form);
  if (!p) return undefined;
  const details = Object.values(p.fields);
  return details.length > 0 ? details.join(" ") : p.message;
}
