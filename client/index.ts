// Typed merchant/warehouse client over the generated contract.
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../generated/api.ts";

export type { paths, components, operations } from "../generated/api.ts";
export { generateWebhookSecret, signWebhook, verifyWebhook, verifyWebhookEvents, webhookHeaders, WebhookVerificationError } from "./webhooks.ts";
export type { VerifyOptions, WebhookEvent, WebhookEventOf, WebhookEventType, WebhookHeaders } from "./webhooks.ts";

export type LogisticsClient = Client<paths, "application/json">;

export interface ClientOptions {
  /** Including the version segment, e.g. http://localhost:3000/2015-01-01 */
  baseUrl: string;
  /** `M-<merchant_id>` or `W-<operator_id>` */
  username?: string;
  secret?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export function createLogisticsClient(opts: ClientOptions): LogisticsClient {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.username !== undefined) {
    headers.Authorization = `Basic ${Buffer.from(`${opts.username}:${opts.secret ?? ""}`).toString("base64")}`;
  }
  return createClient<paths>({ baseUrl: opts.baseUrl, headers, ...(opts.fetch && { fetch: opts.fetch }) });
}
