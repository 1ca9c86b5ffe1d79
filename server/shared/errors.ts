// Domain-level failures. The http layer maps them onto the wire error shape of the spec.
import type { components } from "../../generated/api.ts";

export type ErrorCode = components["schemas"]["Error"]["code"];
export type ErrorDetail = components["schemas"]["ErrorDetail"];

const STATUS: Record<ErrorCode, number> = {
  validation_failed: 400,
  unauthorized: 401,
  access_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  unknown: 500,
  not_implemented: 501,
  unavailable: 503,
};

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export const invalid = (details: ErrorDetail[], message = "The request is not valid.") =>
  new AppError("validation_failed", message, details);
export const notFound = (what: string) => new AppError("not_found", `${what} not found.`);
