// What a call can fail with when the caller asks for exceptions: the service's error body as a typed
// ApiError, or the connection failing before any answer.
import type { components } from "../generated/api.ts";

export type ErrorBody = components["schemas"]["Error"];
export type ErrorCode = ErrorBody["code"];

/** The service answered with a failure status; every field of the spec's error body, typed. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly code: ErrorCode | "unexpected_response";
  readonly details: ErrorBody["details"];
  /** Quote it when you contact support: it finds the request in the service's logs. */
  readonly requestId: string | undefined;
  readonly response: Response;

  constructor(response: Response, body: ErrorBody | undefined) {
    super(body?.message ?? `HTTP ${response.status} without the service's error body`);
    this.status = response.status;
    this.code = body?.code ?? "unexpected_response";
    this.details = body?.details ?? [];
    this.requestId = body?.request_id ?? response.headers.get("x-request-id") ?? undefined;
    this.response = response;
  }

  /** Reads the error body of a failed response (without consuming the original). */
  static async from(response: Response): Promise<ApiError> {
    let body: ErrorBody | undefined;
    try {
      const parsed: unknown = await response.clone().json();
      if (isErrorBody(parsed)) body = parsed;
    } catch {
      // Not JSON (a proxy's page, an empty body): the status is all there is.
    }
    return new ApiError(response, body);
  }
}

export function isErrorBody(v: unknown): v is ErrorBody {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as ErrorBody).code === "string" &&
    typeof (v as ErrorBody).message === "string"
  );
}

/** No answer: the connection failed or the timeout passed (after any retries). */
export class ApiConnectionError extends Error {
  override name = "ApiConnectionError";
  /** The system's reason, when it gave one: `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, `CERT_HAS_EXPIRED`... */
  readonly code: string | undefined;
  constructor(message: string, options?: { cause?: unknown }) {
    const code = systemCode(options?.cause);
    // fetch says only "fetch failed"; the reason is in its cause: name it in the message too.
    super(code && !message.includes(code) ? `${message} (${code})` : message, options);
    this.code = code;
  }
}

/** The first error code in a chain of causes (fetch wraps the socket's error, sometimes in an AggregateError). */
function systemCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string") return e.code;
  const fromCause = systemCode(e.cause, depth + 1);
  if (fromCause) return fromCause;
  return Array.isArray(e.errors) ? systemCode(e.errors[0], depth + 1) : undefined;
}

export class ApiTimeoutError extends ApiConnectionError {
  override name = "ApiTimeoutError";
}

/**
 * The data of a call, or its failure thrown as ApiError: `const s = await unwrap(client.GET(...))`
 * gives `s` the success type, with no `undefined` to check.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<R>,
): Promise<NonNullable<R["data"]>> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw new ApiError(response, isErrorBody(error) ? error : undefined);
  return data as NonNullable<R["data"]>;
}
