// What shop staff read about an endpoint the service turned off. The API's disabled_reason is written for
// developers (status codes, timestamps); these are the same two causes in plain words.
import { formatTime, type S } from "../api.ts";

const FAILING_SINCE = /^Every delivery attempt has failed since (\S+Z)/;

/** Why we stopped sending events to this endpoint, in plain words; undefined while it is on or was turned off by hand. */
export function stoppedBecause(ep: Pick<S["WebhookEndpoint"], "enabled" | "disabled_reason">): string | undefined {
  if (ep.enabled || !ep.disabled_reason) return undefined;
  if (ep.disabled_reason.startsWith("The endpoint answered 410"))
    return "Your system answered that this address is no longer in use, so we stopped sending events to it.";
  const since = FAILING_SINCE.exec(ep.disabled_reason)?.[1];
  if (since)
    return `Every attempt to send events here has failed since ${formatTime(since)}, so we stopped sending them.`;
  return "Sending events here kept failing, so we stopped.";
}

export const WHAT_NOW =
  "Events from the time it is off are not sent later: the delivery log shows what was missed. Once your system receives events again, turn sending back on.";

/** The state column: on, off, or stopped by us. */
export function stateWords(ep: Pick<S["WebhookEndpoint"], "enabled" | "disabled_reason">): string {
  if (ep.enabled) return "Sending events";
  return ep.disabled_reason ? "Stopped: not receiving" : "Turned off";
}
