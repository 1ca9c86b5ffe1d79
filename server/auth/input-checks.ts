// What a password change's schema cannot say, run by the request validator with the schema check (passwordValueRules
// in http.ts), reading the body loosely as every value rule does. The current password's check needs the stored
// hash: it stays in session-kit.ts.
import type { ErrorDetail } from "../shared/errors.ts";
import { fieldOf } from "../shared/loose.ts";

/** A new password the same as the current one changes nothing: refused with the request's other problems. */
export function newPasswordProblems(body: unknown): ErrorDetail[] {
  const next = fieldOf(body, "new_password");
  return typeof next === "string" && next === fieldOf(body, "current_password")
    ? [{ path: "/body/new_password", message: "the same as the current password", code: "unchanged" }]
    : [];
}
