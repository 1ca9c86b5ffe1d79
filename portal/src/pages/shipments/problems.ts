// A failed request in the catalogue's words (what api.ts's problemsOf is being switched to, with the form's own
// limits): the answer's sentence, and each field's message by its path.
import type { Problems } from "../../api.ts";
import { ApiError, bodyOf } from "../../app/data.ts";
import type { Form, Words } from "../../words/index.ts";

export const problemWords = (w: Words, error: unknown, form?: Form): Problems | undefined =>
  error ? w.problems(bodyOf(error), form) : undefined;

/** A refusal because the shipment's status moved on (someone else acted on it meanwhile). */
export const isStatusClash = (error: unknown): boolean => error instanceof ApiError && error.status === 409;

/** "The shipment's status is now “Withdrawn”." from a 409 that names the status it met; undefined otherwise. */
export function statusNow(w: Words, error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const detail = error.body?.details?.find((d) => d.path === "/status");
  return detail ? w.field(detail) : undefined;
}
