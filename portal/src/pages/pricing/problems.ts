// An answer's problems (app/data.ts problemsOf) for the pricing forms: re-rooted where a preview's detail is about
// the draft (`/body/price_lists/0/tax` is the editor's `/body/tax`), and each message put with the nearest field
// the form shows (a value of an `is one of` list goes with the list's field), the rest said in the banner.
import type { Problems } from "../../api.ts";
import { ApiError } from "../../app/data.ts";
import type { ErrorDetail } from "../../../../generated/api.ts";

/** The same answer with other details: an error that is not the service's answer stays as it is. */
function withDetails(error: unknown, pick: (details: ErrorDetail[]) => ErrorDetail[]): unknown {
  if (!(error instanceof ApiError) || !error.body) return error;
  return new ApiError(error.status, { ...error.body, details: pick(error.body.details ?? []) });
}

/** The details under `from`, with their paths re-rooted at `/body` (others left out). */
export const detailsUnder = (error: unknown, from: string): unknown =>
  withDetails(error, (ds) =>
    ds
      .filter((d) => d.path === from || d.path.startsWith(`${from}/`))
      .map((d) => ({ ...d, path: `/body${d.path.slice(from.length)}` })),
  );

/** The details not under any of `prefixes`. */
export const detailsOutside = (error: unknown, prefixes: string[]): unknown =>
  withDetails(error, (ds) => ds.filter((d) => !prefixes.some((s) => d.path === s || d.path.startsWith(`${s}/`))));

export interface Placed {
  /** Messages by the path of a field the form shows. */
  problems?: Problems;
  /** Messages no field shows, already naming their place ("Pricing rule 2: ..."). */
  rest: string[];
}

/** Puts each message with the nearest field of `fields` at or above its path; what has none goes to `rest`. */
export function place(p: Problems | undefined, fields: string[]): Placed {
  if (!p) return { rest: [] };
  const out: Record<string, string> = {};
  const rest: string[] = [];
  const byLength = [...fields].sort((a, b) => b.length - a.length);
  for (const [path, message] of Object.entries(p.fields)) {
    const field = byLength.find((f) => path === f || path.startsWith(`${f}/`));
    if (!field) rest.push(message);
    else out[field] = out[field] && !out[field].includes(message) ? `${out[field]} ${message}` : message;
  }
  return { problems: { message: p.message, fields: out }, rest };
}
