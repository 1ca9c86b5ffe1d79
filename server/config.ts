// Configuration from the environment, checked once at start with one clear message per bad value.
import { DEFAULT_TIMEOUTS } from "./db/database.ts";
import { readWebhookSettings, type WebhookSettings } from "./webhooks/settings.ts";

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  pgliteDir: string;
  logLevel: string;
  seedDemo: boolean;
  rateLimitPerMinute: number;
  /** Per caller (merchant or operator) in each process: requests in progress at once, and body bytes a minute; 0: no limit. */
  concurrentRequestsPerCaller: number;
  /** Of those, requests with a body over 16 KB. */
  heavyRequestsPerCaller: number;
  bodyBytesPerMinute: number;
  webhooks: WebhookSettings;
  /** Failed sign-ins per client address, and per account at one address, in 15 minutes; 0: no limit. */
  loginFailuresPerAddress: number;
  loginFailuresPerAccount: number;
  /** How long nearest-pickup-point answers are reused; 0: never. */
  pickupPointsCacheSeconds: number;
  /** PostgreSQL: opening a connection, and one statement, may take this long before the request is a 503. */
  dbConnectTimeoutMs: number;
  dbStatementTimeoutMs: number;
  /** /metrics: on the API port behind this bearer token, and/or on a port of its own (loopback by default). */
  metricsToken?: string;
  metricsPort?: number;
  metricsHost: string;
  /** Finished webhook deliveries (and their events) are deleted after this many days. */
  deliveryRetentionDays: number;
  /** What this process runs: the API, the worker (webhook dispatcher and housekeeping), or both. */
  role: Role;
}

export const ROLES = ["both", "api", "worker"] as const;
export type Role = (typeof ROLES)[number];

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const port = env.PORT === undefined || env.PORT === "" ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be an integer 0-65535, got "${env.PORT}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    problems.push("DATABASE_URL must start with postgres:// or postgresql://");
  const logLevel = env.LOG_LEVEL || "info";
  if (!LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LEVELS.join(", ")}, got "${logLevel}"`);
  const seed = (env.SEED_DEMO ?? "true").toLowerCase();
  if (!["true", "false", "1", "0"].includes(seed))
    problems.push(`SEED_DEMO must be true or false, got "${env.SEED_DEMO}"`);
  const rateLimit =
    env.RATE_LIMIT_PER_MINUTE === undefined || env.RATE_LIMIT_PER_MINUTE === ""
      ? 6000
      : Number(env.RATE_LIMIT_PER_MINUTE);
  if (!Number.isInteger(rateLimit) || rateLimit < 0 || rateLimit > 2 ** 31 - 1)
    problems.push(
      `RATE_LIMIT_PER_MINUTE must be a whole number 0-2147483647 (0 = no limit), got "${env.RATE_LIMIT_PER_MINUTE}"`,
    );
  const webhooks = readWebhookSettings(env);
  problems.push(...webhooks.problems);
  const count = (name: string, fallback: number) => {
    const raw = env[name];
    const n = raw === undefined || raw === "" ? fallback : Number(raw);
    // The shared counters are 32-bit integers in the database.
    if (!Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1)
      problems.push(`${name} must be a whole number 0-2147483647 (0 = no limit), got "${raw}"`);
    return n;
  };
  const loginFailuresPerAddress = count("LOGIN_FAILURES_PER_ADDRESS", 200);
  const concurrentRequestsPerCaller = count("CONCURRENT_REQUESTS_PER_CALLER", 64);
  const heavyRequestsPerCaller = count("HEAVY_REQUESTS_PER_CALLER", 4);
  const bodyBytesPerMinute = count("BODY_BYTES_PER_MINUTE", 32 * 1024 * 1024);
  const loginFailuresPerAccount = count("LOGIN_FAILURES_PER_ACCOUNT", 10);
  const cacheSeconds =
    env.PICKUP_POINTS_CACHE_SECONDS === undefined || env.PICKUP_POINTS_CACHE_SECONDS === ""
      ? 60
      : Number(env.PICKUP_POINTS_CACHE_SECONDS);
  if (!Number.isInteger(cacheSeconds) || cacheSeconds < 0 || cacheSeconds > 86400) {
    problems.push(
      `PICKUP_POINTS_CACHE_SECONDS must be a whole number 0-86400 (0 = no cache), got "${env.PICKUP_POINTS_CACHE_SECONDS}"`,
    );
  }
  const millis = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    const n = raw === undefined || raw === "" ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      problems.push(`${name} must be a whole number of milliseconds ${min}-${max}, got "${raw}"`);
    return n;
  };
  const dbConnectTimeoutMs = millis("DB_CONNECT_TIMEOUT_MS", DEFAULT_TIMEOUTS.connectTimeoutMs, 100, 60_000);
  const dbStatementTimeoutMs = millis("DB_STATEMENT_TIMEOUT_MS", DEFAULT_TIMEOUTS.statementTimeoutMs, 100, 600_000);
  const retention =
    env.DELIVERY_RETENTION_DAYS === undefined || env.DELIVERY_RETENTION_DAYS === ""
      ? 30
      : Number(env.DELIVERY_RETENTION_DAYS);
  if (!Number.isInteger(retention) || retention < 1 || retention > 3650)
    problems.push(
      `DELIVERY_RETENTION_DAYS must be a whole number of days 1-3650, got "${env.DELIVERY_RETENTION_DAYS}"`,
    );
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16)
    problems.push("METRICS_TOKEN must be at least 16 characters");
  const metricsPort = env.METRICS_PORT === undefined || env.METRICS_PORT === "" ? undefined : Number(env.METRICS_PORT);
  if (metricsPort !== undefined && (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535))
    problems.push(`METRICS_PORT must be an integer 0-65535, got "${env.METRICS_PORT}"`);
  const role = (env.SERVER_ROLE || "both").trim().toLowerCase() as Role;
  if (!ROLES.includes(role)) problems.push(`SERVER_ROLE must be one of ${ROLES.join(", ")}, got "${env.SERVER_ROLE}"`);
  if (role === "worker" && databaseUrl === undefined)
    problems.push(
      "SERVER_ROLE=worker needs DATABASE_URL: the embedded database belongs to one process, which runs both",
    );
  if (problems.length) throw new ConfigError(problems);
  return {
    port,
    // Loopback by default: the demo merchant's secret is public, so exposing it is an explicit choice.
    host: env.HOST || "127.0.0.1",
    databaseUrl,
    pgliteDir: env.PGLITE_DIR || "./data/pglite",
    logLevel,
    seedDemo: seed === "true" || seed === "1",
    rateLimitPerMinute: rateLimit,
    concurrentRequestsPerCaller,
    heavyRequestsPerCaller,
    bodyBytesPerMinute,
    webhooks: webhooks.settings,
    loginFailuresPerAddress,
    loginFailuresPerAccount,
    pickupPointsCacheSeconds: cacheSeconds,
    dbConnectTimeoutMs,
    dbStatementTimeoutMs,
    metricsToken,
    metricsPort,
    metricsHost: env.METRICS_HOST || "127.0.0.1",
    deliveryRetentionDays: retention,
    role,
  };
}
