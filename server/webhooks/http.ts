// Webhook endpoint and delivery operations, keyed by operationId. The handler opens the transaction;
// the domain does the rest.
import type { HandlersWith, ValueRules } from "../operations.ts";
import * as deliveries from "./deliveries.ts";
import * as endpoints from "./endpoints.ts";
import * as feed from "./feed.ts";
import { endpointUrlProblems } from "./input-checks.ts";
import type { WebhookSettings } from "./settings.ts";
import type { MainKeys } from "../secrets/main-keys.ts";

/** The operator's webhook settings decide which endpoint URLs are allowed. */
export const webhookHandlers = {
  // The answer shows the new secret: remembered for a retry, it is stored sealed like the secret itself.
  createWebhookEndpoint: (c, { webhooks, keys }) =>
    c.idempotent(
      async (trx) => ({
        status: 201,
        body: await endpoints.createEndpoint(trx, c.principal, c.body, { ...webhooks, keys }),
      }),
      { sealWith: keys },
    ),
  listWebhookEndpoints: async (c) => ({
    status: 200,
    body: await endpoints.listEndpoints(c.db, c.principal, c.query),
  }),
  getWebhookEndpoint: async (c) => ({
    status: 200,
    body: await endpoints.getEndpoint(c.db, c.principal, c.path.webhook_id),
  }),
  updateWebhookEndpoint: async (c, { webhooks, keys }) => ({
    status: 200,
    body: await c.transaction((trx) =>
      endpoints.updateEndpoint(trx, c.principal, c.path.webhook_id, c.body, { ...webhooks, keys }),
    ),
  }),
  deleteWebhookEndpoint: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => endpoints.deleteEndpoint(trx, c.principal, c.path.webhook_id)),
  }),
  rotateWebhookSecret: async (c, { keys }) => ({
    status: 200,
    body: await c.transaction((trx) => endpoints.rotateSecret(trx, c.principal, c.path.webhook_id, keys)),
  }),
  sendTestWebhook: async (c) => ({
    status: 202,
    body: await c.transaction((trx) => deliveries.sendTestEvent(trx, c.principal, c.path.webhook_id)),
  }),
  listWebhookDeliveries: async (c) => ({
    status: 200,
    body: await deliveries.listDeliveries(c.db, c.principal, c.path.webhook_id, c.query),
  }),
  getWebhookDelivery: async (c) => ({
    status: 200,
    body: await deliveries.getDelivery(c.db, c.principal, c.path.delivery_id),
  }),
  redeliverWebhook: async (c) => ({
    status: 202,
    body: await c.transaction((trx) => deliveries.redeliver(trx, c.principal, c.path.delivery_id)),
  }),
  listEvents: async (c) => ({ status: 200, body: await feed.listEvents(c.db, c.principal, c.query) }),
} satisfies HandlersWith<{ webhooks: WebhookSettings; keys: MainKeys }>;

/** The value rules of webhook endpoint operations, keyed by operationId (run by the request validator). */
export const webhookValueRules = {
  createWebhookEndpoint: ({ body }) => endpointUrlProblems(body),
  updateWebhookEndpoint: ({ body }) => endpointUrlProblems(body),
} satisfies ValueRules;
