// The fetch under the typed client: a timeout per attempt, and opt-in retries with exponential backoff
// and full jitter on network errors, 429 and 503, honouring Retry-After. Only requests that are safe to
// send twice are retried: GET and HEAD, and requests carrying an Idempotency-Key. Browser-safe.
import { retryAfterMs } from "../server/shared/retry-after.ts";
import { ApiConnectionError, ApiTimeoutError } from "./errors.ts";

export interface RetryOptions {
  /** Retries after the first attempt (0: none, the default). */
  maxRetries?: number;
  /** First backoff; doubles per retry, with full jitter. Default 500 ms. */
  initialDelayMs?: number;
  /** Upper bound of one wait, also of a Retry-After the service asks for. Default 8,000 ms. */
  maxDelayMs?: number;
}

export interface TransportOptions {
  /** Per attempt; default 30,000 ms. */
  timeoutMs: number;
  retry: Required<RetryOptions>;
  fetch: (input: Request) => Promise<Response>;
  /** Replaced in tests to avoid waiting. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const RETRIED_STATUSES = new Set([429, 503]);

export function retryable(request: Request): boolean {
  return request.method === "GET" || request.method === "HEAD" || request.headers.has("idempotency-key");
}

export function backoffMs(retry: number, o: Required<RetryOptions>, random: () => number): number {
  const ceiling = Math.min(o.maxDelayMs, o.initialDelayMs * 2 ** retry);
  return Math.round(ceiling * (0.5 + random() / 2)); // never less than half: a herd still spreads out
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createTransport(o: TransportOptions): (input: Request) => Promise<Response> {
  const sleep = o.sleep ?? defaultSleep;
  const random = o.random ?? Math.random;
  return async (request) => {
    const attempts = retryable(request) ? o.retry.maxRetries + 1 : 1;
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= attempts;
      let response: Response;
      try {
        // A fresh copy per attempt: a body stream can be read once.
        response = await once(last ? request : request.clone(), o);
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        await sleep(backoffMs(attempt, o.retry, random));
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const asked = retryAfterMs(response.headers.get("retry-after"));
      await response.body?.cancel();
      await sleep(Math.min(o.retry.maxDelayMs, asked ?? backoffMs(attempt, o.retry, random)));
    }
  };
}

async function once(request: Request, o: TransportOptions): Promise<Response> {
  request.signal.throwIfAborted();
  const timeout = new AbortController();
  // The attempt also ends by this promise, not only by the abort: Node's fetch can lose the link from a signal
  // to the request it was given once that request is garbage-collected (nodejs/undici#4068, #3644), and then
  // an aborted attempt would wait for the server's answer however long it takes.
  let stop!: (reason: unknown) => void;
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  const end = (reason: unknown) => {
    timeout.abort(reason);
    stop(reason);
  };
  const timer = setTimeout(
    () => end(new DOMException(`no answer within ${o.timeoutMs} ms`, "TimeoutError")),
    o.timeoutMs,
  );
  // The caller's own signal still cancels; the timeout cancels this attempt only.
  const onAbort = () => end(request.signal.reason);
  request.signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([o.fetch(new Request(request, { signal: timeout.signal })), stopped]);
  } catch (error) {
    if (request.signal.aborted) throw error;
    if (timeout.signal.aborted)
      throw new ApiTimeoutError(`${request.method} ${request.url}: no answer within ${o.timeoutMs} ms`, {
        cause: error,
      });
    throw new ApiConnectionError(
      `${request.method} ${request.url}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onAbort);
  }
}
