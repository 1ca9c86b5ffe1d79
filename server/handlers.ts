// Every implemented operation of the spec, by operationId: the one list the app and the tests read.
import type { Handlers } from "./http/registry.ts";
import { inboundHandlers } from "./inbound/http.ts";
import { orderHandlers } from "./orders/http.ts";
import { pickupPointHandlers } from "./pickup-points/http.ts";
import { shippingHandlers } from "./shipping/http.ts";
import { webhookHandlers } from "./webhooks/http.ts";

export const handlers: Handlers = {
  ...inboundHandlers,
  ...orderHandlers,
  ...pickupPointHandlers,
  ...shippingHandlers,
  ...webhookHandlers,
};
