// Every implemented operation of the spec, by operationId: the one list the app and the tests read. A
// resource whose handlers need operator settings takes them here, so the HTTP pipeline knows none.
import type { Handlers } from "./operations.ts";
import { TtlCache } from "./shared/ttl-cache.ts";
import type { Caches } from "./shipping/shipping-options.ts";
import { inboundHandlers } from "./inbound/http.ts";
import { orderHandlers } from "./orders/http.ts";
import { pickupPointHandlers } from "./pickup-points/http.ts";
import { portalHandlers } from "./portal/http.ts";
import { sessionHandlers } from "./auth/http.ts";
import { LoginThrottle } from "./accounts/throttle.ts";
import { shippingHandlers } from "./shipping/http.ts";
import { webhookHandlers } from "./webhooks/http.ts";
import { readWebhookSettings, type WebhookSettings } from "./webhooks/settings.ts";

export type { Caches };

export interface HandlerSettings {
  webhooks: WebhookSettings;
  caches: Caches;
  /** Failed portal sign-ins count here, with failed API secrets. */
  loginThrottle: LoginThrottle;
}

export function createHandlers(settings: HandlerSettings): Handlers {
  return {
    ...inboundHandlers,
    ...orderHandlers,
    ...pickupPointHandlers(settings.caches.directory),
    ...shippingHandlers(settings.caches),
    ...webhookHandlers(settings.webhooks),
    ...sessionHandlers(settings.loginThrottle),
    ...portalHandlers,
  };
}

/** The operationIds this server implements (the same whatever the settings). */
export const IMPLEMENTED: ReadonlySet<string> = new Set(
  Object.keys(
    createHandlers({
      webhooks: readWebhookSettings({}).settings,
      caches: { directory: new TtlCache(0), shippingConfig: new TtlCache(0) },
      loginThrottle: new LoginThrottle(undefined as never),
    }),
  ),
);
