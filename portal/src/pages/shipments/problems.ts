// A refusal of a shipment's action because its status moved on, named as it is now (the words of any other failed
// request come from app/data.ts problemsOf).
import { ApiError } from "../../app/data.ts";
import type { Words } from "../../words/index.ts";

/** A refusal because the shipment's status moved on (someone else acted on it meanwhile). */
export const isStatusClash = (error: unknown): boolean => error instanceof ApiError && error.status === 409;

/** "The shipment's status is now “Withdrawn”." from a 409 that names the status it met; undefined otherwise. */
export function statusNow(w: Words, error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const detail = error.body?.details?.find((d) => d.path === "/status");
  return detail ? w.field(detail) : undefined;
}
