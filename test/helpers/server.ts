// Starts the real app on a private database and hands out clients made from the generated contract.
import { randomBytes } from "node:crypto";
import type { TrustProxy } from "../../server/config/readers.ts";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll } from "vitest";
import { pino, type Logger } from "pino";
import { createLogisticsClient, type LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import type { LoginThrottleLimits } from "../../server/accounts/throttle.ts";
import { BASE_PATH, createApp, type AppOptions } from "../../server/app.ts";
import { answerClientErrors } from "../../server/http/client-errors.ts";
import { createHttpServer } from "../../server/http/server.ts";
import type { DatabaseHandle } from "../../server/db/database.ts";
import { createMetrics } from "../../server/metrics/metrics.ts";
import { createServices, type Caches } from "../../server/services.ts";
import type { Quoter } from "../../server/quotes/quotes.ts";
import { clockOf } from "../../server/shared/clock.ts";
import type { Dispatcher, DispatcherOptions } from "../../server/webhooks/dispatcher.ts";
import { readWebhookSettings, type WebhookSettings } from "../../server/webhooks/settings.ts";
import { MainKeys } from "../../server/secrets/main-keys.ts";
import { createTestDatabase } from "./database.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

export interface TestServer {
  origin: string;
  baseUrl: string;
  handle: DatabaseHandle;
  /** Started only with the `dispatcher` option. */
  dispatcher?: Dispatcher;
  /** The instance's caches (directory, shipping configuration). */
  caches: Caches;
  /** The instance's quote signing keys and settings. */
  quoter: Quoter;
  /** The main keys the instance seals stored secrets under. */
  keys: MainKeys;
  merchant(id?: string): Promise<LogisticsClient>;
  operator(id?: string): Promise<LogisticsClient>;
  client(username?: string, secret?: string): LogisticsClient;
  /** Every row of every table: compare before and after a rejected request. */
  snapshot(): Promise<Record<string, unknown[]>>;
  close(): Promise<void>;
}

let seq = 0;

export interface TestServerOptions {
  rateLimitPerMinute?: number;
  concurrentRequestsPerCaller?: number;
  heavyRequestsPerCaller?: number;
  bodyBytesPerMinute?: number;
  responseBytesPerMinute?: number;
  publishableKeyRequestsPerMinute?: number;
  publishableAddressRequestsPerMinute?: number;
  publishableKeySharePerAddress?: number;
  anonymousRequestsPerAddress?: number;
  quoteTtlSeconds?: number;
  /** Where the server reads "now" (test/helpers/clock.ts); default the system clock. */
  now?: () => Date;
  /** RESPONSE_VALIDATION_PERCENT (default 100, as in every test). */
  responseValidationPercent?: number;
  /** The implemented operations (default: the registry). */
  handlers?: AppOptions["handlers"];
  /** Login throttle limits (default: the server's). */
  loginLimits?: LoginThrottleLimits;
  /** Webhook settings over the defaults (e.g. allowPrivateNetworks for a loopback receiver). */
  webhooks?: Partial<WebhookSettings>;
  /** Serve /metrics behind this bearer token. */
  metricsToken?: string;
  /** A second instance: serve another test server's database (left open by close()). */
  database?: DatabaseHandle;
  /** Serve the portal built into this folder (default dist/portal). */
  portalDir?: string;
  /** Serve the client package packed into this folder (default dist/client). */
  clientDir?: string;
  /** Serve the picker built into this folder (default dist/picker), and the demo shop page. */
  pickerDir?: string;
  demoPages?: boolean;
  /** The picker's map settings (PICKER_MAP_TILE_URL, PICKER_MAP_ATTRIBUTION). */
  pickerMap?: AppOptions["pickerMap"];
  trustProxy?: TrustProxy;
  /** The app's logger (default: silent, or TEST_LOG_LEVEL's level on stdout). */
  logger?: Logger;
  /** Start a webhook dispatcher with the server (stopped by close()). */
  dispatcher?: boolean | Omit<DispatcherOptions, "handle" | "settings" | "keys" | "logger">;
  /** The main keys (default: one key for every test server of the process, so instances share what they store). */
  keys?: MainKeys;
}

/** A random main key per test process: no test depends on its bytes. */
export const TEST_MAIN_KEYS = new MainKeys(randomBytes(32));

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const handle = opts.database ?? (await createTestDatabase());
  const logger = opts.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const webhooks = { ...readWebhookSettings({}).settings, ...opts.webhooks };
  const metrics = createMetrics(handle);
  // The same composition root as `npm start`; the housekeeping's first sweep is seconds away, past most tests.
  const keys = opts.keys ?? TEST_MAIN_KEYS;
  const services = createServices({
    handle,
    logger,
    keys,
    webhooks,
    loginLimits: opts.loginLimits,
    quoteTtlSeconds: opts.quoteTtlSeconds,
    clock: opts.now && clockOf(opts.now),
    worker: opts.dispatcher
      ? {
          deliveryRetentionDays: 30,
          dispatcher: {
            onAttempt: metrics.deliveryAttempt,
            ...(typeof opts.dispatcher === "object" && opts.dispatcher),
          },
        }
      : false,
  });
  try {
    await services.start();
  } catch (err) {
    // A start refused (a main key missing): nothing keeps running, the database stays as it was.
    await services.stop();
    if (!opts.database) await handle.close();
    throw err;
  }
  const dispatcher = services.dispatcher;
  const app = createApp({
    services,
    logger,
    rateLimitPerMinute: opts.rateLimitPerMinute,
    concurrentRequestsPerCaller: opts.concurrentRequestsPerCaller,
    heavyRequestsPerCaller: opts.heavyRequestsPerCaller,
    bodyBytesPerMinute: opts.bodyBytesPerMinute,
    responseBytesPerMinute: opts.responseBytesPerMinute,
    publishableKeyRequestsPerMinute: opts.publishableKeyRequestsPerMinute,
    publishableAddressRequestsPerMinute: opts.publishableAddressRequestsPerMinute,
    publishableKeySharePerAddress: opts.publishableKeySharePerAddress,
    anonymousRequestsPerAddress: opts.anonymousRequestsPerAddress,
    responseValidationPercent: opts.responseValidationPercent,
    handlers: opts.handlers,
    metrics,
    metricsToken: opts.metricsToken,
    portalDir: opts.portalDir,
    clientDir: opts.clientDir,
    pickerDir: opts.pickerDir,
    demoPages: opts.demoPages,
    pickerMap: opts.pickerMap,
    trustProxy: opts.trustProxy,
  });
  const server: Server = await new Promise((resolve) => {
    const s = createHttpServer(app).listen(0, "127.0.0.1", () => resolve(s));
  });
  answerClientErrors(server);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = origin + BASE_PATH;
  const client = (username?: string, secret?: string) => createLogisticsClient({ baseUrl, username, secret });
  const account = async (role: "merchant" | "operator", prefix: string, id?: string) => {
    const accountId = id ?? `${role}-${++seq}.example.com`;
    const secret = `secret-${accountId}`;
    await provisionAccount(handle.db, role, accountId, secret);
    return client(`${prefix}-${accountId}`, secret);
  };
  return {
    caches: services.caches,
    quoter: services.quoter,
    keys,
    origin,
    baseUrl,
    handle,
    dispatcher,
    client,
    merchant: (id) => account("merchant", "M", id),
    operator: (id) => account("operator", "W", id),
    snapshot: async () => {
      // Every table the migrations made, read from the database itself: a new table cannot be missed.
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
          and table_name <> 'rate_limit_counters'
        order by 1`.execute(handle.db);
      const out: Record<string, unknown[]> = {};
      for (const { name } of tables.rows)
        out[name] = (await sql`select * from ${sql.table(name)} order by 1, 2`.execute(handle.db)).rows;
      // Reading the events feed gives committed events their positions (webhooks/db.ts sequenceFeed): the order a
      // reader sees them in, not data a request changes, so a GET of /events still counts as changing nothing.
      delete out.webhook_feed_positions;
      for (const row of (out.webhook_events ?? []) as Record<string, unknown>[]) delete row.feed_position;
      return out;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await services.stop();
      if (!opts.database) await handle.close();
    },
  };
}

/**
 * The one preamble of a test file: a server on a private database, started before the file's tests and
 * closed after them. `setup` receives it first, to keep it and to add what the file needs:
 * `useTestServer(async (s) => { srv = s; m = await s.merchant(); })`.
 */
export function useTestServer(setup: (srv: TestServer) => void | Promise<void>, opts: TestServerOptions = {}): void {
  let srv: TestServer | undefined;
  beforeAll(async () => {
    srv = await startTestServer(opts);
    await setup(srv);
  });
  afterAll(async () => {
    await srv?.close();
  });
}

/** useTestServer with a merchant and a warehouse operator of the file's own. */
export function useTestAccounts(
  set: (s: { srv: TestServer; m: LogisticsClient; w: LogisticsClient }) => void,
  opts: TestServerOptions = {},
): void {
  useTestServer(async (srv) => set({ srv, m: await srv.merchant(), w: await srv.operator() }), opts);
}

/**
 * useTestServer with a webhook dispatcher sending to a loopback receiver of the file's own. No safety poll
 * within a test's time: every delivery is woken by its commit's notification or a retry timer.
 */
export function useWebhookServer(
  setup: (srv: TestServer, rx: Receiver) => void | Promise<void>,
  webhooks: Partial<WebhookSettings>,
): void {
  let rx: Receiver | undefined;
  useTestServer(
    async (srv) => {
      rx = await startReceiver();
      await setup(srv, rx);
    },
    { webhooks: { allowPrivateNetworks: true, ...webhooks }, dispatcher: { pollMs: 600_000 } },
  );
  afterAll(async () => {
    await rx?.close();
  });
}
