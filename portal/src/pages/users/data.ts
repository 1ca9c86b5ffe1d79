// The users area's data: the list (a query option factory for TanStack Query, through `unwrap`: a 401 signs the
// page out by itself) and the words of a refusal of one user's action.
import { queryOptions } from "@tanstack/react-query";
import type { Api } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import type { Form, Words } from "../../words/index.ts";

export const USERS = ["portal_users"] as const;

export function usersQuery(api: Api) {
  return queryOptions({ queryKey: USERS, queryFn: ({ signal }) => unwrap(api.GET("/portal_users", { signal })) });
}

/**
 * One sentence for a refused action on a user (change role, remove): the detail's own words when there is one
 * ("This is the shop's only administrator: ..."), which say more than the answer's general sentence.
 */
export function refusalOf(w: Words, error: unknown, form: Form): string | undefined {
  const p = problemsOf(w, error, form);
  if (!p) return undefined;
  const details = Object.values(p.fields);
  return details.length > 0 ? details.join(" ") : p.message;
}
