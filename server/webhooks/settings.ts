// The webhook settings: the `webhooks` group of the configuration table (server/config/settings.ts), read alone
// where only they are needed (tests, benchmarks, the registry of operations).
import { readSettings, type SettingValues } from "../config/readers.ts";
import { SETTINGS } from "../config/settings.ts";

export type WebhookSettings = SettingValues<typeof SETTINGS.webhooks>;

export function readWebhookSettings(env: NodeJS.ProcessEnv = process.env): {
  settings: WebhookSettings;
  problems: string[];
} {
  const { values, problems } = readSettings(SETTINGS.webhooks, env);
  return { settings: values, problems };
}
