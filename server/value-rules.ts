// Every operation's value rules (what its schema cannot say), by operationId: the one list the request validator
// runs with the schema check (http/validator.ts), so that one 400 lists every problem of a request. Each resource
// exports its own, beside its handlers; see ValueRules in operations.ts for what a rule may assume.
import { passwordValueRules } from "./auth/http.ts";
import type { ValueRules } from "./operations.ts";
import { inboundValueRules } from "./inbound/http.ts";
import { orderValueRules } from "./orders/http.ts";
import { pickupPointValueRules } from "./pickup-points/http.ts";
import { publishableKeyValueRules } from "./publishable-keys/http.ts";
import { shippingValueRules } from "./shipping/http.ts";
import { webhookValueRules } from "./webhooks/http.ts";

export const VALUE_RULES: ValueRules = {
  ...inboundValueRules,
  ...shippingValueRules,
  ...orderValueRules,
  ...pickupPointValueRules,
  ...publishableKeyValueRules,
  ...passwordValueRules,
  ...webhookValueRules,
};
