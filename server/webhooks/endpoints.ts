// The merchant's webhook endpoints: register, change, rotate the secret, remove.
import { generateWebhookSecret } from "./signing.ts";
import type {
  DeletedResult,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
} from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import type { ValidatedQuery } from "../shared/contract.ts";
import { AppError, invalid, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { decodeCursor, toPage } from "../shared/pagination.ts";
import type { MainKeys } from "../secrets/main-keys.ts";
import { sealedFor } from "../secrets/at-rest.ts";
import * as q from "./db.ts";
import { checkWebhookUrl } from "./url-safety.ts";
import { endpointToWire } from "./wire.ts";

export const MAX_ENDPOINTS = 20;
/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface EndpointSettings {
  allowPrivateNetworks: boolean;
  /** The secrets are stored sealed under the main key. */
  keys: MainKeys;
}

const sealFor = (keys: MainKeys, id: string) => (plain: string) => keys.seal(plain, sealedFor("webhook_endpoints", id));

function checkUrl(url: string, settings: EndpointSettings): void {
  const problems = checkWebhookUrl(url, settings);
  if (problems.length) throw invalid(problems, "The webhook URL is not allowed.");
}

export async function createEndpoint(
  trx: Tx,
  merchant: Principal,
  input: WebhookEndpointCreate,
  settings: EndpointSettings,
): Promise<WebhookEndpointWithSecret> {
  checkUrl(input.url, settings);
  await q.lockMerchantEndpoints(trx, merchant.id);
  if ((await q.countEndpoints(trx, merchant.id)) >= MAX_ENDPOINTS) {
    throw new AppError("conflict", `At most ${MAX_ENDPOINTS} webhook endpoints per merchant: delete one first.`);
  }
  const now = new Date();
  const id = newId(now.getTime());
  const secret = generateWebhookSecret();
  const seal = sealFor(settings.keys, id);
  await q.insertEndpoint(trx, {
    id,
    merchant_id: merchant.id,
    url: input.url,
    event_types: input.event_types,
    description: input.description ?? "",
    enabled: input.enabled ?? true,
    batching: input.batching ?? false,
    secret_sealed: seal(secret),
    basic_username: input.basic_auth?.username ?? null,
    basic_password_sealed: input.basic_auth ? seal(input.basic_auth.password) : null,
    created_at: now,
    updated_at: now,
  });
  return { ...endpointToWire((await q.findEndpoint(trx, merchant.id, id))!), secret };
}

export async function getEndpoint(db: Executor, merchant: Principal, id: string): Promise<WebhookEndpoint> {
  const e = await q.findEndpoint(db, merchant.id, id);
  if (!e) throw notFound("Webhook endpoint");
  return endpointToWire(e);
}

export async function listEndpoints(
  db: Executor,
  merchant: Principal,
  query: ValidatedQuery<"listWebhookEndpoints">,
): Promise<WebhookEndpointList> {
  const { limit } = query;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await q.listEndpoints(db, merchant.id, after, limit + 1);
  return toPage(rows, limit, (e) => ({ at: e.created_at, id: e.id }), endpointToWire);
}

export async function updateEndpoint(
  trx: Tx,
  merchant: Principal,
  id: string,
  input: WebhookEndpointUpdate,
  settings: EndpointSettings,
): Promise<WebhookEndpoint> {
  if (input.url !== undefined) checkUrl(input.url, settings);
  const current = await q.findEndpoint(trx, merchant.id, id, true);
  if (!current) throw notFound("Webhook endpoint");
  const { basic_auth, ...plain } = input;
  await q.updateEndpoint(trx, id, {
    ...plain,
    // The merchant decides now: a reason the service gave for disabling it no longer applies.
    ...(input.enabled !== undefined && { disabled_reason: null, failing_since: null }),
    ...(basic_auth !== undefined && {
      basic_username: basic_auth?.username ?? null,
      basic_password_sealed: basic_auth ? sealFor(settings.keys, id)(basic_auth.password) : null,
    }),
    updated_at: new Date(),
  });
  // A batch formed before the switch is not resumed after it: queued deliveries form new batches.
  if (input.batching !== undefined && input.batching !== current.batching) await q.forgetBatches(trx, id);
  return endpointToWire((await q.findEndpoint(trx, merchant.id, id))!);
}

export async function deleteEndpoint(trx: Tx, merchant: Principal, id: string): Promise<DeletedResult> {
  if (!(await q.deleteEndpoint(trx, merchant.id, id))) throw notFound("Webhook endpoint");
  return { success: true, id };
}

/**
 * A new secret; the current one keeps signing beside it for 24 hours. A second rotation within them
 * keeps only the secret current just before it: two signatures at most.
 */
export async function rotateSecret(
  trx: Tx,
  merchant: Principal,
  id: string,
  keys: MainKeys,
): Promise<WebhookEndpointWithSecret> {
  const current = await q.findEndpoint(trx, merchant.id, id, true);
  if (!current) throw notFound("Webhook endpoint");
  const now = new Date();
  const secret = generateWebhookSecret();
  await q.rotateSecret(trx, id, sealFor(keys, id)(secret), new Date(now.getTime() + ROTATION_OVERLAP_MS), now);
  return { ...endpointToWire((await q.findEndpoint(trx, merchant.id, id))!), secret };
}
