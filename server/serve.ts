// The server process (main.ts loads it): configure, migrate, seed the demo on an empty database, listen, shut down
// gracefully.
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import cluster from "node:cluster";
import path from "node:path";
import express from "express";
import { pino } from "pino";
import { batchedLogStream } from "./shared/log-stream.ts";
import { DEFAULT_LOGIN_LIMITS } from "./accounts/throttle.ts";
import { BASE_PATH, createApp } from "./app.ts";
import { runPrimary } from "./cluster.ts";
import { ConfigError, loadConfig } from "./config.ts";
import packageJson from "../package.json" with { type: "json" };
import { serveBackups } from "./db/backup.ts";
import { startTracing } from "./tracing/tracer.ts";
import { openDatabase } from "./db/database.ts";
import { migrateToLatest, pendingContractNotice } from "./db/migrate.ts";
import { demoState, seedDemoIfEmpty, startBanner } from "./demo.ts";
import { answerClientErrors } from "./http/client-errors.ts";
import { createHttpServer } from "./http/server.ts";
import { prepareValidator } from "./http/validator.ts";
import { metricsHandler } from "./metrics/http.ts";
import { createMetrics } from "./metrics/metrics.ts";
import { createServices } from "./services.ts";
import { closeWebhookAgents } from "./webhooks/sender.ts";
import { describeKeySource, loadMainKeys } from "./secrets/key-source.ts";

const SHUTDOWN_GRACE_MS = 10_000;

// Where start-up time goes, in the "listening" line: an operator sees what a slow start waited for.
const startup: Record<string, number | string> = {};
/** Adds a fact of the start to the "listening" line (main.ts: whether V8's code cache was used). */
export const noteStartup = (name: string, value: string) => (startup[name] = value);

let listened: () => void = () => {};
/** Settles once the server listens (main.ts then keeps V8's code cache of what the start compiled: server-script.ts). */
export const listening = new Promise<void>((resolve) => (listened = resolve));

async function main() {
  startup.modules_ms = Math.round(performance.now());
  const phase = (name: string, since: number) => (startup[`${name}_ms`] = Math.round(performance.now() - since));
  let since = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const logger = pino({ level: config.logLevel }, batchedLogStream());
  // A stray rejection is a bug to see in the logs, not a crash of every in-flight request.
  process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled promise rejection"));
  if (config.webConcurrency > 1 && cluster.isPrimary) return runPrimary(config.webConcurrency, logger);
  // The embedded database opens on its own thread (main.ts started it) while this one waits: the validator's
  // preparation of the spec, which the app's pipeline would start later, runs meanwhile instead.
  if (config.role !== "worker") prepareValidator(config.responseValidationPercent);
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.pgliteDir,
    durability: config.pgliteDurability,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    poolMode: config.dbPoolMode,
    listenUrl: config.dbListenUrl,
    onNotice: (message) => logger.warn(message),
    onConnectionError: (err) =>
      logger.warn({ err }, "a database connection failed; requests answer 503 until it is back"),
  });
  phase("database", since);
  since = performance.now();
  const migrated = await migrateToLatest(handle.db);
  logger.info(
    { database: handle.kind, migrations: migrated.applied, contract_migrations: migrated.contracted },
    "database ready",
  );
  if (migrated.pendingContract.length) logger.warn(pendingContractNotice(migrated.pendingContract));
  const demo = await demoState(handle.db, config.seedDemo && (await seedDemoIfEmpty(handle.db)));

  phase("migrations", since);
  since = performance.now();
  const metrics = createMetrics(handle, { defaultMetrics: true });
  // Off unless OTEL_* asks (tracing/tracer.ts); before the app, whose pipeline adds its steps when on.
  const stopTracing = await startTracing(config, packageJson.version).catch((err: Error) => {
    logger.error({ err }, "tracing could not start; serving without it");
    return undefined;
  });
  if (stopTracing) logger.info("tracing on: spans go to the OTLP endpoint of OTEL_EXPORTER_OTLP_*");
  let accepting = true;
  // SERVER_ROLE: the API and the worker (webhook deliveries, housekeeping) scale apart on PostgreSQL.
  const servesApi = config.role !== "worker";
  const runsWorker = config.role !== "api";
  const mainKeys = await loadMainKeys(config);
  logger.info({ main_key: mainKeys.keys.currentId }, describeKeySource(mainKeys));
  // A failed flush of the embedded database (a disk error): what the disk holds is unknown, and a later answer
  // could show a commit that is not there. The process stops before answering anything more, as PostgreSQL does;
  // started again, it recovers from what the disk holds (test/process/power-cut.test.ts).
  const durable = handle.durable;
  const stopIfNotFlushed =
    durable &&
    (() =>
      durable().catch((err: Error) => {
        logger.fatal({ err }, "the embedded database could not flush its files to the disk: stopping");
        process.exit(1);
      }));
  const services = createServices({
    handle: { ...handle, durable: stopIfNotFlushed },
    logger,
    keys: mainKeys.keys,
    webhooks: config.webhooks,
    pickupPointsCacheSeconds: config.pickupPointsCacheSeconds,
    quoteTtlSeconds: config.quoteTtlSeconds,
    loginLimits: {
      ...DEFAULT_LOGIN_LIMITS,
      perAddress: config.loginFailuresPerAddress,
      perAccount: config.loginFailuresPerAccount,
    },
    worker: runsWorker && {
      deliveryRetentionDays: config.deliveryRetentionDays,
      dispatcher: { onAttempt: metrics.deliveryAttempt },
    },
  });
  const app = createApp({
    services,
    serveApi: servesApi,
    metrics,
    metricsToken: config.metricsToken,
    logger,
    isAccepting: () => accepting,
    rateLimitPerMinute: config.rateLimitPerMinute,
    concurrentRequestsPerCaller: config.concurrentRequestsPerCaller,
    heavyRequestsPerCaller: config.heavyRequestsPerCaller,
    bodyBytesPerMinute: config.bodyBytesPerMinute,
    responseBytesPerMinute: config.responseBytesPerMinute,
    publishableKeyRequestsPerMinute: config.publishableKeyRequestsPerMinute,
    publishableAddressRequestsPerMinute: config.publishableAddressRequestsPerMinute,
    publishableKeySharePerAddress: config.publishableKeySharePerAddress,
    anonymousRequestsPerAddress: config.anonymousRequestsPerAddress,
    responseValidationPercent: config.responseValidationPercent,
    trustProxy: config.trustProxy,
    demoPages: config.seedDemo,
    pickerMap:
      config.pickerMap.tileUrl && config.pickerMap.attribution
        ? { tileUrl: config.pickerMap.tileUrl, attribution: config.pickerMap.attribution }
        : undefined,
  });
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : express().get("/metrics", metricsHandler(metrics)).listen(config.metricsPort, config.metricsHost);
  metricsServer?.on("error", (err) => {
    logger.fatal({ err }, "cannot listen for metrics");
    process.exit(1);
  });
  metricsServer?.on("listening", () =>
    logger.info({ port: (metricsServer.address() as AddressInfo).port, host: config.metricsHost }, "metrics listening"),
  );
  const { sealed } = await services.start();
  if (sealed > 0)
    logger.info(
      { sealed },
      `${sealed} secrets stored plain by an earlier release are now also encrypted; the plain copies are dropped by \`npm run cli -- migrate --contract\` once every instance runs this release`,
    );
  // The CLI's `backup` asks this process, which holds the embedded database (db/backup.ts).
  const stopBackups = handle.backup
    ? await serveBackups(path.resolve(config.pgliteDir), handle.backup, logger).catch((err: Error) => {
        logger.warn({ err }, "backups while the server runs are not available: the control socket could not be opened");
        return async () => {};
      })
    : async () => {};
  phase("app", since);
  const server = createHttpServer(app).listen(config.port, config.host);
  answerClientErrors(server);
  server.on("error", async (err) => {
    logger.fatal({ err }, "cannot listen");
    await services.stop();
    await handle.close();
    process.exit(1);
  });
  server.on("listening", () => {
    const { port } = server.address() as AddressInfo;
    const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
    const baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}${BASE_PATH}`;
    logger.info(
      {
        url: baseUrl,
        database: handle.kind,
        role: config.role,
        startup: { ...startup, total_ms: Math.round(performance.now()) },
      },
      "listening",
    );
    // Tools and the start benchmark read this line as soon as the server answers (log-stream.ts gathers lines).
    logger.flush();
    if (!runsWorker) logger.info("API only (SERVER_ROLE=api): webhooks are delivered by a worker process");
    // A developer's first receiver usually runs on the same machine, which the default refuses (and should).
    if (servesApi && !config.webhooks.allowPrivateNetworks && /^(127\.|localhost$|::1$)/.test(config.host))
      logger.info(
        "webhook URLs on this machine or a private network are refused; on a development machine set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to receive them locally",
      );
    if (servesApi) console.log(startBanner(baseUrl, demo, config.seedDemo));
    listened();
  });

  const shutdown = (signal: string) => {
    if (!accepting) return;
    accepting = false;
    logger.info(
      { signal, drain_ms: config.shutdownDrainMs },
      "shutting down: finishing in-flight requests and webhook deliveries",
    );
    // Draining (SHUTDOWN_DRAIN_MS): /readyz says 503 (accepting is false) and each answer closes its connection, so
    // a balancer moves this process's traffic elsewhere on fresh connections before the port closes under a reused one.
    server.on("request", (_req, res: ServerResponse) => (res.shouldKeepAlive = false));
    // Deliveries not yet claimed stay queued for the next start (or another instance).
    const workerDone = services.stop().catch((err) => logger.error({ err }, "stopping the webhook dispatcher failed"));
    const close = () => {
      setTimeout(() => {
        logger.warn("grace period over, closing remaining connections");
        server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS).unref();
      metricsServer?.close();
      server.close(async () => {
        await workerDone;
        await stopBackups();
        await stopTracing?.().catch((err: Error) => logger.warn({ err }, "flushing the last spans failed"));
        closeWebhookAgents();
        // The last requests' counts, taken within the limits' flush interval, go out while the database is open.
        await services.windows.flush();
        await handle.close();
        logger.info("stopped");
        process.exit(0);
      });
      server.closeIdleConnections();
    };
    setTimeout(close, config.shutdownDrainMs);
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
