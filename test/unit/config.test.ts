import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { allSettings } from "../../server/config/readers.ts";
import { SETTINGS } from "../../server/config/settings.ts";

describe("configuration", () => {
  it("defaults to the embedded database on loopback port 3000", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: "127.0.0.1",
      webConcurrency: 1,
      databaseUrl: undefined,
      dbPoolMode: "session",
      dbListenUrl: undefined,
      shutdownDrainMs: 0,
      otelSdkDisabled: false,
      otelTracesExporter: undefined,
      otelEndpoint: undefined,
      otelTracesEndpoint: undefined,
      otelServiceName: "logistics-api",
      otelTracesSampler: "parentbased_always_on",
      otelTracesSamplerArg: undefined,
      otelBspScheduleDelayMs: 5000,
      pgliteDir: "./data/pglite",
      pgliteDurability: "durable",
      secretsMainKey: [],
      secretsReadKeys: [],
      logLevel: "info",
      seedDemo: true,
      trustProxy: false,
      rateLimitPerMinute: 6000,
      publishableKeyRequestsPerMinute: 600,
      publishableAddressRequestsPerMinute: 120,
      publishableKeySharePerAddress: 30,
      anonymousRequestsPerAddress: 600,
      quoteTtlSeconds: 3600,
      concurrentRequestsPerCaller: 64,
      heavyRequestsPerCaller: 4,
      bodyBytesPerMinute: 32 * 1024 * 1024,
      responseBytesPerMinute: 256 * 1024 * 1024,
      responseValidationPercent: 100,
      webhooks: {
        retrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
        timeoutMs: 10_000,
        allowPrivateNetworks: false,
        disableAfterFailingDays: 5,
      },
      loginFailuresPerAddress: 200,
      loginFailuresPerAccount: 10,
      pickupPointsCacheSeconds: 60,
      dbConnectTimeoutMs: 3000,
      dbStatementTimeoutMs: 5000,
      metricsToken: undefined,
      metricsPort: undefined,
      metricsHost: "127.0.0.1",
      deliveryRetentionDays: 30,
      role: "both",
      pickerMap: { tileUrl: undefined, attribution: undefined },
    });
  });
  it("reads the process role; a worker needs PostgreSQL", () => {
    expect(loadConfig({ SERVER_ROLE: "api" }).role).toBe("api");
    expect(loadConfig({ SERVER_ROLE: "Worker", DATABASE_URL: "postgres://db/x" }).role).toBe("worker");
    expect(() => loadConfig({ SERVER_ROLE: "worker" })).toThrow(/SERVER_ROLE=worker needs DATABASE_URL/);
    expect(() => loadConfig({ SERVER_ROLE: "cron" })).toThrow(
      /SERVER_ROLE must be one of both, api, worker, got "cron"/,
    );
  });
  it("reads how many server processes to run; more than one needs PostgreSQL", () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: "4", DATABASE_URL: "postgres://db/x" }).webConcurrency).toBe(4);
    expect(loadConfig({ WEB_CONCURRENCY: "1" }).webConcurrency).toBe(1);
    expect(() => loadConfig({ WEB_CONCURRENCY: "2" })).toThrow(
      /WEB_CONCURRENCY above 1 needs DATABASE_URL: the embedded database belongs to one process/,
    );
    for (const bad of ["0", "-1", "1.5", "two", "65"])
      expect(() => loadConfig({ WEB_CONCURRENCY: bad, DATABASE_URL: "postgres://db/x" })).toThrow(/WEB_CONCURRENCY/);
  });
  it("reads the pooler's mode and the direct URL for LISTEN, refusing others", () => {
    expect(
      loadConfig({
        DATABASE_URL: "postgres://app@pooler:6432/x",
        DATABASE_POOL_MODE: "transaction",
        DATABASE_LISTEN_URL: "postgres://app@db:5432/x",
      }),
    ).toMatchObject({ dbPoolMode: "transaction", dbListenUrl: "postgres://app@db:5432/x" });
    expect(() => loadConfig({ DATABASE_POOL_MODE: "transaction" })).toThrow(
      /DATABASE_POOL_MODE and DATABASE_LISTEN_URL need DATABASE_URL/,
    );
    expect(() => loadConfig({ DATABASE_POOL_MODE: "statement" })).toThrow(
      /DATABASE_POOL_MODE must be one of session, transaction, got "statement"/,
    );
    expect(() => loadConfig({ DATABASE_LISTEN_URL: "mysql://db/x" })).toThrow(
      /DATABASE_LISTEN_URL must start with postgres:\/\/ or postgresql:\/\//,
    );
  });
  it("reads the standard OTEL_* settings of traces, refusing bad ones", () => {
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0.1",
      }),
    ).toMatchObject({
      otelEndpoint: "http://collector:4318",
      otelTracesSampler: "parentbased_traceidratio",
      otelTracesSamplerArg: "0.1",
    });
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: "jaeger" })).toThrow(/OTEL_TRACES_EXPORTER must be otlp or none/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: "2" })).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a ratio/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://x" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must start with http:\/\/ or https:\/\//,
    );
  });
  it("reads the database timeouts and the metrics settings, refusing bad ones", () => {
    expect(loadConfig({ DELIVERY_RETENTION_DAYS: "7" }).deliveryRetentionDays).toBe(7);
    expect(
      loadConfig({
        DB_CONNECT_TIMEOUT_MS: "2000",
        DB_STATEMENT_TIMEOUT_MS: "800",
        METRICS_TOKEN: "a-token-of-16-chars",
        METRICS_PORT: "9464",
        METRICS_HOST: "0.0.0.0",
      }),
    ).toMatchObject({
      deliveryRetentionDays: 30,
      dbConnectTimeoutMs: 2000,
      dbStatementTimeoutMs: 800,
      metricsToken: "a-token-of-16-chars",
      metricsPort: 9464,
      metricsHost: "0.0.0.0",
    });
    try {
      loadConfig({
        DB_CONNECT_TIMEOUT_MS: "0",
        DB_STATEMENT_TIMEOUT_MS: "soon",
        METRICS_TOKEN: "short",
        METRICS_PORT: "99999",
        DELIVERY_RETENTION_DAYS: "0",
      });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).problems).toHaveLength(5);
      expect((err as Error).message).toMatch(
        /DB_CONNECT_TIMEOUT_MS[\s\S]*DB_STATEMENT_TIMEOUT_MS[\s\S]*METRICS_TOKEN[\s\S]*METRICS_PORT/,
      );
    }
  });
  it("reads the per-caller limits, 0 turning one off", () => {
    expect(loadConfig({ CONCURRENT_REQUESTS_PER_CALLER: "0", BODY_BYTES_PER_MINUTE: "1048576" })).toMatchObject({
      concurrentRequestsPerCaller: 0,
      bodyBytesPerMinute: 1048576,
    });
    expect(() => loadConfig({ CONCURRENT_REQUESTS_PER_CALLER: "many" })).toThrow(/CONCURRENT_REQUESTS_PER_CALLER/);
    expect(() => loadConfig({ BODY_BYTES_PER_MINUTE: "-5" })).toThrow(/BODY_BYTES_PER_MINUTE/);
  });
  it("reads the login throttle's limits, 0 turning one off", () => {
    expect(loadConfig({ LOGIN_FAILURES_PER_ADDRESS: "0", LOGIN_FAILURES_PER_ACCOUNT: "3" })).toMatchObject({
      loginFailuresPerAddress: 0,
      loginFailuresPerAccount: 3,
    });
    expect(() => loadConfig({ LOGIN_FAILURES_PER_ACCOUNT: "-1" })).toThrow(/LOGIN_FAILURES_PER_ACCOUNT/);
  });
  it("reads the embedded database's durability, and refuses another word", () => {
    expect(loadConfig({ PGLITE_DURABILITY: "relaxed" }).pgliteDurability).toBe("relaxed");
    expect(() => loadConfig({ PGLITE_DURABILITY: "fast" })).toThrow(/PGLITE_DURABILITY/);
  });
  it("reads the picker map's tile URL template and its credit line, refusing bad ones with a clear message", () => {
    const credit = "© OpenStreetMap contributors";
    expect(
      loadConfig({ PICKER_MAP_TILE_URL: " https://tiles.example/{z}/{x}/{y}.png ", PICKER_MAP_ATTRIBUTION: credit })
        .pickerMap,
    ).toEqual({ tileUrl: "https://tiles.example/{z}/{x}/{y}.png", attribution: credit });
    expect(
      loadConfig({
        PICKER_MAP_TILE_URL: "http://127.0.0.1:8080/{s}/{z}/{x}/{y}{r}.png?k=1",
        PICKER_MAP_ATTRIBUTION: "x",
      }).pickerMap.tileUrl,
    ).toBe("http://127.0.0.1:8080/{s}/{z}/{x}/{y}{r}.png?k=1");
    const refused = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as ConfigError).problems;
      }
      return [];
    };
    const usage =
      "PICKER_MAP_TILE_URL must be an http:// or https:// URL template with {z}, {x} and {y} (e.g. https://tiles.example/{z}/{x}/{y}.png)";
    const withCredit = (url: string) => refused({ PICKER_MAP_TILE_URL: url, PICKER_MAP_ATTRIBUTION: credit });
    expect(withCredit("https://tiles.example/{z}/{x}.png")).toEqual([`${usage}; it lacks {y}`]);
    expect(withCredit("https://tiles.example/tile.png")).toEqual([`${usage}; it lacks {z}, {x}, {y}`]);
    expect(withCredit("https://tiles.example/{z}/{x}/{y}.png?key={apikey}")).toEqual([
      `${usage}; {apikey} is not one of {s}, {z}, {x}, {y}, {r}`,
    ]);
    expect(withCredit("ftp://tiles.example/{z}/{x}/{y}.png")).toEqual([usage]);
    expect(withCredit("tiles.example/{z}/{x}/{y}.png")).toEqual([`${usage}; it is not a URL`]);
    expect(withCredit("https://user:pw@tiles.example/{z}/{x}/{y}.png")).toEqual([
      "PICKER_MAP_TILE_URL must hold no user name or password: every shopper's browser is given it",
    ]);
    expect(refused({ PICKER_MAP_TILE_URL: "https://tiles.example/{z}/{x}/{y}.png" })).toEqual([
      "PICKER_MAP_ATTRIBUTION is required with PICKER_MAP_TILE_URL: the credit line the tile provider asks for, shown on the map (e.g. © OpenStreetMap contributors)",
    ]);
    expect(refused({ PICKER_MAP_ATTRIBUTION: credit })).toEqual([
      "PICKER_MAP_ATTRIBUTION is set but PICKER_MAP_TILE_URL is not: without a tile URL the picker shows no map",
    ]);
    expect(
      refused({
        PICKER_MAP_TILE_URL: "https://tiles.example/{z}/{x}/{y}.png",
        PICKER_MAP_ATTRIBUTION: "a".repeat(301),
      }),
    ).toEqual(["PICKER_MAP_ATTRIBUTION must be at most 300 characters, got 301"]);
  });
  it("names every bad value at once", () => {
    try {
      loadConfig({
        PORT: "http",
        DATABASE_URL: "mysql://x",
        LOG_LEVEL: "loud",
        SEED_DEMO: "maybe",
        WEBHOOK_RETRY_SCHEDULE: "5,soon",
        WEBHOOK_TIMEOUT_MS: "0",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "yes",
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toHaveLength(7);
      expect((err as Error).message).toMatch(
        /PORT.*\n.*DATABASE_URL.*\n.*LOG_LEVEL.*\n.*SEED_DEMO.*\n.*WEBHOOK_RETRY_SCHEDULE.*\n.*WEBHOOK_TIMEOUT_MS.*\n.*WEBHOOK_ALLOW_PRIVATE_NETWORKS/,
      );
    }
  });
  it("reads the webhook settings", () => {
    expect(
      loadConfig({
        WEBHOOK_RETRY_SCHEDULE: "0.05,0.1",
        WEBHOOK_TIMEOUT_MS: "500",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      }).webhooks,
    ).toEqual({ retrySchedule: [0.05, 0.1], timeoutMs: 500, allowPrivateNetworks: true, disableAfterFailingDays: 5 });
  });
  it("says per kind of setting what it accepts and what it got", () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(
      problems({
        PORT: "eighty",
        DB_CONNECT_TIMEOUT_MS: "50",
        PICKUP_POINTS_CACHE_SECONDS: "1.5",
        RATE_LIMIT_PER_MINUTE: "-1",
        SEED_DEMO: "maybe",
        LOG_LEVEL: "loud",
        DATABASE_URL: "mysql://user:secret@db/x",
        METRICS_TOKEN: "secret",
      }),
    ).toEqual([
      'PORT must be a whole number 0-65535, got "eighty"',
      "DATABASE_URL must start with postgres:// or postgresql://",
      'DB_CONNECT_TIMEOUT_MS must be a whole number of milliseconds 100-60000, got "50"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      'SEED_DEMO must be true or false, got "maybe"',
      'RATE_LIMIT_PER_MINUTE must be a whole number 0-2147483647 (0 = no limit), got "-1"',
      'PICKUP_POINTS_CACHE_SECONDS must be a whole number of seconds 0-86400 (0 = no cache), got "1.5"',
      "METRICS_TOKEN must be at least 16 characters",
    ]);
  });
  it("checks every answer by default, and a 1% sample when NODE_ENV=production", () => {
    expect(loadConfig({}).responseValidationPercent).toBe(100);
    expect(loadConfig({ NODE_ENV: "development" }).responseValidationPercent).toBe(100);
    expect(loadConfig({ NODE_ENV: "production" }).responseValidationPercent).toBe(1);
    expect(loadConfig({ NODE_ENV: "production", RESPONSE_VALIDATION_PERCENT: "100" }).responseValidationPercent).toBe(
      100,
    );
    expect(loadConfig({ RESPONSE_VALIDATION_PERCENT: "0" }).responseValidationPercent).toBe(0);
  });

  it("takes an unset or blank variable for its default, and words in any case", () => {
    expect(loadConfig({ PORT: " ", SEED_DEMO: "FALSE", LOG_LEVEL: "Debug", HOST: " 0.0.0.0 " })).toMatchObject({
      port: 3000,
      seedDemo: false,
      logLevel: "debug",
      host: "0.0.0.0",
    });
  });
  it("declares each variable once, with a meaning for operators", () => {
    const names = allSettings(SETTINGS).map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const setting of allSettings(SETTINGS)) expect(setting.meaning, setting.name).toMatch(/^\S.*\.$/);
  });
  it("is the only reader of the environment in the server", () => {
    // A variable read anywhere else would have no row: no check at start, no line in docs/configuration.md.
    // The readers of the table take the environment as a parameter, process.env by default.
    const server = path.resolve(import.meta.dirname, "../../server");
    const readers = readdirSync(server, { recursive: true, encoding: "utf8" }).filter(
      (file) =>
        file.endsWith(".ts") &&
        readFileSync(path.join(server, file), "utf8")
          .replaceAll("NodeJS.ProcessEnv = process.env", "")
          .includes("process.env"),
    );
    expect(readers).toEqual([]);
  });
});
