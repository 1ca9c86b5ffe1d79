// Every implemented operation of the spec, by operationId: the one list the app and the tests read. A
// resource whose handlers need operator settings takes them here, so the HTTP pipeline knows none.
import type { Handlers } from "./http/registry.ts";
import type { Nearest } from "./pickup-points/lookup.ts";
import { TtlCache } from "./shared/ttl-cache.ts";
import type { ShippingConfig } from "./shipping/merchant-config.ts";
import { inboundHandlers } from "./inbound/http.ts";
import { orderHandlers } from "./orders/http.ts";
import { pickupPointHandlers } from "./pickup-points/http.ts";
import { shippingHandlers } from "./shipping/http.ts";
import { webhookHandlers } from "./webhooks/http.ts";
import { readWebhookSettings, type WebhookSettings } from "./webhooks/settings.ts";

/** The caches an instance keeps (services.ts makes them and invalidates them across instances). */
export interface Caches {
  /** Nearest pickup points by country, postal code and limit: shared by every merchant. */
  directory: TtlCache<Nearest>;
  /** Each merchant's shipping settings and price lists, by merchant id. */
  shippingConfig: TtlCache<ShippingConfig>;
}

export interface HandlerSettings {
  webhooks: WebhookSettings;
  caches: Caches;
}

export function createHandlers(settings: HandlerSettings): Handlers {
  return {
    ...inboundHandlers,
    ...orderHandlers,
    ...pickupPointHandlers(settings.caches.directory),
    ...shippingHandlers(settings.caches),
    ...webhookHandlers(settings.webhooks),
  };
}

/** The operationIds this server implements (the same whatever the settings). */
export const IMPLEMENTED: ReadonlySet<string> = new Set(
  Object.keys(createHandlers({ webhooks: readWebhookSettings({}).settings, caches: { directory: new TtlCache(0), shippingConfig: new TtlCache(0) } })),
);
