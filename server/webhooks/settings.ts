// The webhook settings of the environment, checked at start like the others (server/config.ts collects the
// problems and refuses to start with one message per bad value).
import { parseRetrySchedule } from "./backoff.ts";

export interface WebhookSettings {
  /** Seconds between attempts; its length + 1 is the number of attempts. */
  retrySchedule: readonly number[];
  /** Whole attempt, connect to end of response. */
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** An endpoint whose every attempt has failed for this many days is disabled; 0: never. */
  disableAfterFailingDays: number;
}

export function readWebhookSettings(env: NodeJS.ProcessEnv = process.env): {
  settings: WebhookSettings;
  problems: string[];
} {
  const problems: string[] = [];
  const retry = parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE);
  if (retry.problem) problems.push(retry.problem);
  const rawTimeout = env.WEBHOOK_TIMEOUT_MS;
  const timeoutMs = rawTimeout === undefined || rawTimeout.trim() === "" ? 10_000 : Number(rawTimeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 120_000)
    problems.push(`WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds 1-120000, got "${rawTimeout}"`);
  const allow = (env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? "false").trim().toLowerCase() || "false";
  if (!["true", "false", "1", "0"].includes(allow))
    problems.push(`WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false, got "${env.WEBHOOK_ALLOW_PRIVATE_NETWORKS}"`);
  const rawDays = env.WEBHOOK_DISABLE_AFTER_FAILING_DAYS;
  const disableAfterFailingDays = rawDays === undefined || rawDays.trim() === "" ? 5 : Number(rawDays);
  if (!Number.isInteger(disableAfterFailingDays) || disableAfterFailingDays < 0 || disableAfterFailingDays > 365) {
    problems.push(
      `WEBHOOK_DISABLE_AFTER_FAILING_DAYS must be a whole number of days 0-365 (0 = never), got "${rawDays}"`,
    );
  }
  return {
    settings: {
      retrySchedule: retry.schedule ?? [],
      timeoutMs,
      allowPrivateNetworks: allow === "true" || allow === "1",
      disableAfterFailingDays,
    },
    problems,
  };
}
