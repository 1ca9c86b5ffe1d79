// Every implemented operation of the spec, by operationId: the one list the app and the tests read.
import type { Handlers } from "./http/registry.ts";
import { inboundHandlers } from "./inbound/http.ts";
import { webhookHandlers } from "./webhooks/http.ts";

export const handlers: Handlers = {
  ...inboundHandlers,
  ...webhookHandlers,
};
