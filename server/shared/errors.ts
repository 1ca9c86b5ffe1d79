// Failures by code. The http layer maps codes onto statuses and the wire error shape of the spec.
import type { components } from "../../generated/api.ts";

export type ErrorCode = components["schemas"]["Error"]["code"];
export type ErrorDetail = components["schemas"]["ErrorDetail"];

/** A failure with a code of the spec's Error schema; the http layer decides the status. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
    /** Properties an error answer of its own schema adds to the shared shape (the spec names them). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const invalid = (details: ErrorDetail[], message = "The request is not valid.") =>
  new AppError("validation_failed", message, details);
export const notFound = (what: string) => new AppError("not_found", `${what} not found.`);
