// Configuration from the environment, checked once at start with one clear message per bad value. What each
// variable is, accepts and defaults to is declared in ./config/settings.ts; this file reads them all and holds the
// rules that involve more than one.
import { readSettings, type SettingValues } from "./config/readers.ts";
import { SETTINGS } from "./config/settings.ts";

/** The settings as read, with the defaults that depend on another variable filled in. */
export type Config = Omit<SettingValues<typeof SETTINGS>, "responseValidationPercent"> & {
  responseValidationPercent: number;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** Rules over several settings, checked after each was read: each says what is wrong, or nothing. */
const RULES: ((config: SettingValues<typeof SETTINGS>, env: NodeJS.ProcessEnv) => string | undefined)[] = [
  // A key generated into a file beside the data is fine for one machine; production on PostgreSQL has several
  // instances and backups kept elsewhere, so its key must be one the operator keeps (docs/secrets.md).
  (c, env) =>
    c.databaseUrl !== undefined && env.NODE_ENV === "production" && c.secretsMainKey.length === 0
      ? "SECRETS_MAIN_KEY is required with DATABASE_URL when NODE_ENV=production: the key that encrypts stored webhook and quote signing secrets, base64 of 32 bytes (make one with `npm run cli -- secrets new-key`; docs/secrets.md)"
      : undefined,
  (c) =>
    c.role === "worker" && c.databaseUrl === undefined
      ? "SERVER_ROLE=worker needs DATABASE_URL: the embedded database belongs to one process, which runs both"
      : undefined,
  (c) =>
    c.webConcurrency > 1 && c.databaseUrl === undefined
      ? "WEB_CONCURRENCY above 1 needs DATABASE_URL: the embedded database belongs to one process"
      : undefined,
  (c) =>
    c.databaseUrl === undefined && (c.dbPoolMode === "transaction" || c.dbListenUrl !== undefined)
      ? "DATABASE_POOL_MODE and DATABASE_LISTEN_URL need DATABASE_URL: they describe the way to PostgreSQL"
      : undefined,
  (c) =>
    c.pickerMap.tileUrl !== undefined && c.pickerMap.attribution === undefined
      ? "PICKER_MAP_ATTRIBUTION is required with PICKER_MAP_TILE_URL: the credit line the tile provider asks for, shown on the map (e.g. © OpenStreetMap contributors)"
      : undefined,
  // (An unset URL, not a refused one: that has its own message.)
  (c, env) =>
    !env.PICKER_MAP_TILE_URL?.trim() && c.pickerMap.attribution !== undefined
      ? "PICKER_MAP_ATTRIBUTION is set but PICKER_MAP_TILE_URL is not: without a tile URL the picker shows no map"
      : undefined,
  (c) =>
    (c.pickerMap.attribution?.length ?? 0) > 300
      ? `PICKER_MAP_ATTRIBUTION must be at most 300 characters, got ${c.pickerMap.attribution!.length}`
      : undefined,
  (c) =>
    c.otelTracesExporter !== undefined && !["otlp", "none"].includes(c.otelTracesExporter.toLowerCase())
      ? `OTEL_TRACES_EXPORTER must be otlp or none, got "${c.otelTracesExporter}"`
      : undefined,
  (c) => {
    const arg = c.otelTracesSamplerArg;
    return arg !== undefined && !(Number(arg) >= 0 && Number(arg) <= 1)
      ? `OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "${arg}"`
      : undefined;
  },
];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { values, problems } = readSettings(SETTINGS, env);
  for (const rule of RULES) {
    const problem = rule(values, env);
    if (problem !== undefined) problems.push(problem);
  }
  if (problems.length) throw new ConfigError(problems);
  // Production checks a sample of answers (each check costs about as much as building the answer, issue 27);
  // everywhere else every answer, so that a test or a developer sees a contract break as a 500 at once.
  return {
    ...values,
    responseValidationPercent: values.responseValidationPercent ?? (env.NODE_ENV === "production" ? 1 : 100),
  };
}
