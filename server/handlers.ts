// Every implemented operation of the spec, by operationId: the one list the app and the tests read. A
// resource whose handlers need operator settings takes them here, so the HTTP pipeline knows none.
import type { Context, Handlers, HandlersWith, OperationId, Reply } from "./operations.ts";
import type { Caches } from "./shipping/shipping-options.ts";
import { inboundHandlers } from "./inbound/http.ts";
import { orderHandlers } from "./orders/http.ts";
import { pickupPointHandlers } from "./pickup-points/http.ts";
import { portalHandlers } from "./portal/http.ts";
import { sessionHandlers } from "./auth/http.ts";
import type { LoginThrottle } from "./accounts/throttle.ts";
import { shippingHandlers } from "./shipping/http.ts";
import { webhookHandlers } from "./webhooks/http.ts";
import { publishableKeyHandlers } from "./publishable-keys/http.ts";
import { quoteHandlers } from "./quotes/http.ts";
import { shopifyHandlers } from "./shopify/http.ts";
import { warehouseHandlers } from "./warehouse/http.ts";
import type { Quoter } from "./quotes/quotes.ts";
import type { Clock } from "./shared/clock.ts";
import type { WebhookSettings } from "./webhooks/settings.ts";
import type { MainKeys } from "./secrets/main-keys.ts";

export type { Caches };

export interface HandlerSettings {
  webhooks: WebhookSettings;
  caches: Caches;
  /** Failed portal sign-ins count here, with failed API secrets. */
  loginThrottle: LoginThrottle;
  /** Signs the quotes of checkout pages' answers and checks those sent with orders. */
  quoter: Quoter;
  /** "Now" for answers that depend on it (services.ts: the system clock, a test clock in tests). */
  clock: Clock;
  /** Seal the secrets stored (webhook endpoints' secrets and Basic passwords, answers that show a secret). */
  keys: MainKeys;
}

const registry = {
  ...inboundHandlers,
  ...orderHandlers,
  ...pickupPointHandlers,
  ...shippingHandlers,
  ...webhookHandlers,
  ...sessionHandlers,
  ...portalHandlers,
  ...publishableKeyHandlers,
  ...quoteHandlers,
  ...shopifyHandlers,
  ...warehouseHandlers,
} satisfies HandlersWith<HandlerSettings>;

/** The operationIds this server implements: the registry's keys, the same whatever the settings. */
export const IMPLEMENTED: ReadonlySet<string> = new Set(Object.keys(registry));

/** The registry's handlers, each given the operator's settings. */
export function createHandlers(settings: HandlerSettings): Handlers {
  // Each entry is called only with its own operation's context (dispatch looks it up by operationId), which the
  // union of all entries cannot express: hence the cast through unknown.
  type Unbound = (ctx: Context<OperationId>, settings: HandlerSettings) => Promise<Reply<OperationId>>;
  return Object.fromEntries(
    Object.entries(registry).map(([id, handle]) => [
      id,
      (ctx: Context<OperationId>) => (handle as unknown as Unbound)(ctx, settings),
    ]),
  );
}
