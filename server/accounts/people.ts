// The rules of people's accounts (merchant portal users, warehouse users): email addresses kept in lower case, and
// passwords of 10 to 256 characters, as the spec's PortalEmail and PortalPassword say. The API's validator checks
// them from the spec; the operator's CLI, which it does not see, checks them here.
import type { ErrorDetail } from "../shared/errors.ts";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
// What the spec's `format: email` accepts.
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{1,63}$/;

export const normalEmail = (email: string) => email.trim().toLowerCase();

/** What is wrong with a person's email (normalised) and password, as the API would say it; empty when nothing. */
export function personProblems(email: string, password: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!EMAIL.test(email) || email.length > 254)
    problems.push({ path: "email", message: "not an email address", code: "format" });
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    problems.push({ path: "password", message: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, code: "length" });
  return problems;
}
