import type { ErrorRequestHandler, RequestHandler } from "express";
import { specDocument } from "../shared/spec-document.ts";
import type { components } from "../../generated/api.ts";
import { isDatabaseUnavailable } from "../db/availability.ts";
import { AppError, type ErrorCode, type ErrorDetail } from "../shared/errors.ts";
import type { Res } from "./express.ts";

type WireError = components["schemas"]["Error"];

/** The one table from error codes to HTTP statuses. */
export const STATUS_OF: Record<ErrorCode, number> = {
  validation_failed: 400,
  unauthorized: 401,
  access_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state: 409,
  ambiguous_reference: 409,
  cursor_from_other_history: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  headers_too_large: 431,
  unknown: 500,
  not_implemented: 501,
  unavailable: 503,
};

// What the validator and body parser throw carries a status only.
const BY_STATUS: Record<number, ErrorCode> = {
  400: "validation_failed",
  401: "unauthorized",
  403: "access_denied",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  412: "precondition_failed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "idempotency_key_reused",
  429: "rate_limited",
  501: "not_implemented",
  503: "unavailable",
};

const DATABASE_RETRY_AFTER_SECONDS = 5;

export const REALM = 'Basic realm="logistics-api", charset="UTF-8"';
/** For the portal's requests: a browser prompts for Basic credentials, never for this scheme. */
export const SESSION_REALM = 'Session realm="logistics-portal"';
const portalRequest = (res: Res) =>
  res.req.headers.authorization === undefined && res.req.headers["x-csrf-token"] !== undefined;

interface ValidatorError {
  status: number;
  message?: string;
  errors?: { path?: string; message?: string; errorCode?: string }[];
  headers?: Record<string, string>;
  type?: string; // body-parser
}

/** Translates everything thrown below into the one error shape of the spec. */
export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  // The database is down, restarting or stalled: the request was not applied (its transaction, if any,
  // rolled back); the client may retry.
  if (isDatabaseUnavailable(err)) {
    return new AppError("unavailable", "The service cannot reach its database right now. Retry shortly.", [], {
      "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  const e = err as ValidatorError;
  if (!e || typeof e.status !== "number") return undefined;
  // body-parser
  if (e.type === "entity.parse.failed")
    return new AppError("validation_failed", "The request body is not valid JSON.", [
      { path: "/body", message: "malformed JSON", code: "json" },
    ]);
  if (e.type === "entity.too.large") return new AppError("payload_too_large", "The request body is larger than 1 MB.");
  if (e.type === "encoding.unsupported" || e.type === "charset.unsupported")
    return new AppError("unsupported_media_type", "Send the body as UTF-8 JSON.");
  const code = BY_STATUS[e.status];
  if (!code || e.status >= 500) return undefined;
  const details: ErrorDetail[] = (e.errors ?? []).map((d) => ({
    path: normalizePath(d.path ?? ""),
    message: d.message ?? "invalid",
    ...(d.errorCode && { code: d.errorCode.replace(/\.openapi\.(validation|requestValidation)$/, "") }),
  }));
  const message =
    {
      validation_failed: "The request is not valid.",
      unauthorized: "Valid credentials are required.",
      access_denied: e.errors?.[0]?.message ?? e.message ?? "Not allowed.",
      not_found: "No such resource.",
      method_not_allowed: "This method is not allowed on this resource.",
      unsupported_media_type: "Send the body as application/json.",
    }[code as string] ??
    e.message ??
    code;
  return new AppError(code, message, code === "validation_failed" ? details : [], e.headers ?? {});
}

// The validator says ".body.products[0].qty" in some versions and "/body/products/0/qty" in others.
function normalizePath(p: string): string {
  return p
    .replace(/\[(\d+)\]/g, "/$1")
    .replace(/\./g, "/")
    .replace(/^(?!\/)/, "/");
}

/** What one error answer may carry (the Error schema's bounds): a body full of mistakes gets a short answer. */
const MAX_DETAILS = 50;
const MAX_PATH = 500;
const MAX_MESSAGE = 1000;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

export function sendError(res: Res, err: AppError): void {
  const body: WireError = {
    success: false,
    code: err.code,
    message: err.message,
    details: err.details.slice(0, MAX_DETAILS).map((d) => ({
      ...d,
      path: cut(d.path, MAX_PATH),
      message: cut(d.message, MAX_MESSAGE),
    })),
    ...(err.details.length > MAX_DETAILS && { details_total: err.details.length }),
    request_id: res.locals.requestId,
    // What an error of its own schema adds to the shared shape (AmbiguousReference's candidates).
    ...err.extra,
  };
  for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  const status = STATUS_OF[err.code];
  if (status === 401) res.setHeader("WWW-Authenticate", portalRequest(res) ? SESSION_REALM : REALM);
  res.status(status).json(body);
}

export const errorHandler: ErrorRequestHandler = (err, _req, res: Res, _next) => {
  const known = toAppError(err);
  if (known) {
    if (STATUS_OF[known.code] >= 500) res.locals.log?.error({ err, reqId: res.locals.requestId }, "request failed");
    return sendError(res, known);
  }
  // Unexpected (including a response that broke the contract): log everything, reveal nothing.
  res.locals.log?.error({ err, reqId: res.locals.requestId }, "unexpected error");
  if (res.headersSent) return void res.end();
  sendError(res, new AppError("unknown", "Something went wrong on our side. Quote the request_id to support."));
};

/**
 * 404 for what nothing served. A path that names one of the API's resources without the version segment gets
 * the right address in the message: the most common first mistake of a new integrator.
 */
export function notFoundHandler(basePath: string): RequestHandler {
  const doc = specDocument() as { paths: Record<string, unknown> };
  const resources = new Set(Object.keys(doc.paths).map((p) => p.split("/")[1]));
  return (req) => {
    const first = req.path.split("/")[1];
    if (!req.path.startsWith(`${basePath}/`) && first !== undefined && resources.has(first))
      throw new AppError(
        "not_found",
        `No such resource. The API's paths begin with the version: ${basePath}${req.path}`,
      );
    throw new AppError("not_found", "No such resource.");
  };
}
