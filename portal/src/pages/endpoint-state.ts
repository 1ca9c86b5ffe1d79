// What shop staff read about an endpoint the service turned off. The API's disabled_reason is written for
// developers (status codes, timestamps); these are the same two causes in plain words.
import type { Words } from "../words/index.ts";
import type { WebhookEndpoint } from "../../../generated/api.ts";

const FAILING_SINCE = /^Every delivery attempt has failed since (\S+Z)/;

/** Why we stopped sending events to this endpoint, in plain words; undefined while it is on or was turned off by hand. */
export function stoppedBecause(ep: Pick<WebhookEndpoint, "enabled" | "disabled_reason">, w: Words): string | undefined {
  if (ep.enabled || !ep.disabled_reason) return undefined;
  if (ep.disabled_reason.startsWith("The endpoint answered 410")) return w.t.webhooks.stopped410;
  const since = FAILING_SINCE.exec(ep.disabled_reason)?.[1];
  if (since) return w.t.webhooks.failingSince(w.date(since));
  return w.t.webhooks.keptFailing;
}

/** The state column: on, off, or stopped by us. */
export function stateWords(ep: Pick<WebhookEndpoint, "enabled" | "disabled_reason">, w: Words): string {
  if (ep.enabled) return w.t.webhooks.sending;
  return ep.disabled_reason ? w.t.webhooks.stoppedState : w.t.webhooks.off;
}
