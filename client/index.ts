// The merchant's client: openapi-fetch typed from the contract, with what a production integration needs
// (retries, timeouts, idempotency keys, typed errors, pagination). Browser-safe: no Node-only API here;
// webhook verification, which needs node:crypto, is the `./webhooks` entry.
import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "../generated/api.ts";
import { ApiError } from "./errors.ts";
import { createTransport, type RetryOptions } from "./transport.ts";

export type { components, operations, paths, webhooks } from "../generated/api.ts";
export { ApiConnectionError, ApiError, ApiTimeoutError, unwrap, type ErrorBody, type ErrorCode } from "./errors.ts";
export { pages, paginate, type ItemOf, type ListPath, type PageOf } from "./pagination.ts";
export { FACT_KINDS, OPERATORS_BY_KIND, type FactKind } from "./rules.ts";
export type { RetryOptions } from "./transport.ts";
export type { WebhookEvent, WebhookEventOf, WebhookEventType } from "./webhook-events.ts";

export type LogisticsClient = Client<paths, "application/json">;

export interface ClientOptions {
  /** Including the version segment, e.g. http://localhost:3000/2015-01-01 */
  baseUrl: string;
  /** `M-<merchant_id>` or `W-<operator_id>` */
  username?: string;
  secret?: string;
  /** A publishable key (`pk_...`) instead of a username and secret: shipping options and pickup points only. */
  publishableKey?: string;
  headers?: Record<string, string>;
  /** Per attempt, default 30,000 ms; ApiTimeoutError when it passes. */
  timeoutMs?: number;
  /**
   * Opt-in retries (network errors, 429, 503; Retry-After honoured) of requests safe to repeat: GET,
   * HEAD, and POSTs with an Idempotency-Key, which the client then adds to creating POSTs by itself.
   * A number is `maxRetries`.
   */
  retries?: number | RetryOptions;
  /** Throw ApiError on a failure status instead of returning `{ error }`. */
  throwOnError?: boolean;
  fetch?: (input: Request) => Promise<Response>;
}

/** The POST operations that accept an Idempotency-Key, checked against the contract by the compiler both ways. */
type PostOf<P extends keyof paths> = paths[P] extends { post: infer O } ? ([O] extends [never] ? never : O) : never;
type KeyedPost = {
  [P in keyof paths]: PostOf<P> extends { parameters: { header?: infer H } }
    ? [NonNullable<H>] extends [never]
      ? never
      : "Idempotency-Key" extends keyof NonNullable<H>
        ? P
        : never
    : never;
}[keyof paths];
const KEYED_POSTS = [
  "/inbound_shipments/_create",
  "/inbound_shipments/{shipment_id}/arrivals",
  "/orders/_create",
  "/merchant/price_lists/_create",
  "/webhook_endpoints/_create",
  "/publishable_keys/_create",
  "/shopify/carrier_service_tokens/_create",
] as const satisfies readonly KeyedPost[];
type MissingKeyedPost = Exclude<KeyedPost, (typeof KEYED_POSTS)[number]>;
const everyKeyedPostListed: MissingKeyedPost extends never ? true : MissingKeyedPost = true;
void everyKeyedPostListed;
const keyedPosts: ReadonlySet<string> = new Set(KEYED_POSTS);

/** `Basic base64(utf8(user:secret))`, without Node's Buffer. */
export function basicAuthorization(username: string, secret: string): string {
  const bytes = new TextEncoder().encode(`${username}:${secret}`);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** A new Idempotency-Key (a random UUID). */
export function idempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

export function createLogisticsClient(opts: ClientOptions): LogisticsClient {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.username !== undefined) headers.Authorization = basicAuthorization(opts.username, opts.secret ?? "");
  else if (opts.publishableKey !== undefined) headers.Authorization = `Bearer ${opts.publishableKey}`;
  const retry = typeof opts.retries === "number" ? { maxRetries: opts.retries } : (opts.retries ?? {});
  const maxRetries = Math.max(0, Math.floor(retry.maxRetries ?? 0));
  const transport = createTransport({
    timeoutMs: opts.timeoutMs ?? 30_000,
    retry: { maxRetries, initialDelayMs: retry.initialDelayMs ?? 500, maxDelayMs: retry.maxDelayMs ?? 8_000 },
    fetch: opts.fetch ?? ((request) => globalThis.fetch(request)),
  });
  const client = createClient<paths>({ baseUrl: opts.baseUrl, headers, fetch: transport });

  const middleware: Middleware = {
    onRequest({ request, schemaPath }) {
      // The key makes the retry of a create safe: the service answers it with the first response.
      if (
        maxRetries > 0 &&
        request.method === "POST" &&
        keyedPosts.has(schemaPath) &&
        !request.headers.has("idempotency-key")
      ) {
        request.headers.set("Idempotency-Key", idempotencyKey());
      }
      return request;
    },
    async onResponse({ response }) {
      if (opts.throwOnError && !response.ok) throw await ApiError.from(response);
      return undefined;
    },
  };
  client.use(middleware);
  return client;
}
