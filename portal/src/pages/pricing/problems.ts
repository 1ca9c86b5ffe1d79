// An answer's problems in the catalogue's words, for the pricing forms: re-rooted where a preview's detail is about
// the draft (`/body/price_lists/0/tax` is the editor's `/body/tax`), and each message put with the nearest field
// the form shows (a value of an `is one of` list goes with the list's field), the rest said in the banner.
import type { Problems } from "../../api.ts";
import type { AnswerBody } from "../../app/data.ts";
import type { Form, Words } from "../../words/index.ts";

/** The details under `from`, with their paths re-rooted at `/body` (others left out). */
export function detailsUnder(body: AnswerBody | undefined, from: string): AnswerBody | undefined {
  if (!body) return undefined;
  const details = (body.details ?? [])
    .filter((d) => d.path === from || d.path.startsWith(`${from}/`))
    .map((d) => ({ ...d, path: `/body${d.path.slice(from.length)}` }));
  return { ...body, details };
}

/** The details not under any of `prefixes`. */
export function detailsOutside(body: AnswerBody | undefined, prefixes: string[]): AnswerBody | undefined {
  if (!body) return undefined;
  const inside = (p: string) => prefixes.some((s) => p === s || p.startsWith(`${s}/`));
  return { ...body, details: (body.details ?? []).filter((d) => !inside(d.path)) };
}

export const wordsFor = (w: Words, body: AnswerBody | undefined, form: Form): Problems | undefined =>
  body ? w.problems(body, form) : undefined;

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
