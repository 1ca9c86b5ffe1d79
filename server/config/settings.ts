// Every environment variable the server reads, declared once: its reader gives the value, the message for a bad
// value and the docs' row (docs/configuration.md, `npm run generate:docs`). A new setting is one row here, keyed
// by its property in Config, plus the code that uses it; rows nest under a group key such as `webhooks`.
// The order is that of the docs and of the start-up messages.
import { DEFAULT_TIMEOUTS } from "../db/timeouts.ts";
import { flag, mainKeys, oneOf, secondsList, text, tileUrlTemplate, trustProxy, url, wholeNumber } from "./readers.ts";

export const ROLES = ["both", "api", "worker"] as const;
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
// The shared counters of the rate limits and the login throttle are 32-bit integers in the database.
const INT32_MAX = 2 ** 31 - 1;

/** Seconds to wait after the 1st, 2nd, … failed webhook attempt: about a day in total, 8 attempts. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 36000];

export const SETTINGS = {
  port: wholeNumber({ name: "PORT", default: 3000, min: 0, max: 65535, meaning: "Port to listen on." }),
  host: text({
    name: "HOST",
    default: "127.0.0.1",
    allowed: "an address or host name",
    meaning: "Interface to listen on: loopback by default, because the demo credentials are public.",
  }),
  trustProxy: trustProxy({
    name: "TRUST_PROXY",
    meaning:
      "Behind a reverse proxy that terminates TLS: whose `X-Forwarded-For` and `X-Forwarded-Proto` to believe, so that client addresses (sign-in throttling, rate limits, logs) are the clients' and the session cookie is `Secure`; leave `false` when clients connect directly, or anyone could claim any address.",
  }),
  role: oneOf({
    name: "SERVER_ROLE",
    values: ROLES,
    default: "both",
    meaning:
      "`api` serves the API only; `worker` delivers webhooks and runs the housekeeping only (health, readiness and metrics on its port, the API is `404`; needs `DATABASE_URL`); `both` does both.",
  }),
  webConcurrency: wholeNumber({
    name: "WEB_CONCURRENCY",
    default: 1,
    min: 1,
    max: 64,
    meaning:
      "Server processes on the one port, to use more cores (PostgreSQL only: the embedded database belongs to one process). Each holds its own 10 connections to the database (and one for `LISTEN`); a process that ends is started again, and the whole server stops if none can start.",
  }),
  databaseUrl: url({
    name: "DATABASE_URL",
    schemes: ["postgres", "postgresql"],
    meaning: "PostgreSQL connection string; unset, the server runs on the embedded PGlite.",
  }),
  dbPoolMode: oneOf({
    name: "DATABASE_POOL_MODE",
    values: ["session", "transaction"] as const,
    default: "session",
    meaning:
      "`transaction` when `DATABASE_URL` goes through a pooler in transaction mode (PgBouncer's `pool_mode = transaction`, as managed PostgreSQL services offer): statements are not prepared by name, the time limits are set in each transaction (and, for statements outside one, on the database role), and nothing relies on a session. `session` for a direct connection or a session-mode pooler.",
  }),
  dbListenUrl: url({
    name: "DATABASE_LISTEN_URL",
    schemes: ["postgres", "postgresql"],
    meaning:
      "A direct connection (not through a transaction-mode pooler) for `LISTEN`, which tells every instance at once that prices or pickup points changed and that webhooks are waiting. Unset: `DATABASE_URL` in session mode; in transaction mode the server looks every second instead, and says so at start.",
  }),
  pgliteDir: text({
    name: "PGLITE_DIR",
    default: "./data/pglite",
    allowed: "a directory",
    meaning: "Where the embedded database lives; one process at a time, a second one is refused.",
  }),
  pgliteDurability: oneOf({
    name: "PGLITE_DURABILITY",
    values: ["durable", "relaxed"] as const,
    default: "durable",
    meaning:
      "The embedded database: `durable` answers a write only once its commit is on the disk (the commits of concurrent requests share one flush); `relaxed` answers once the operating system has it, a little faster, but a power cut or a machine crash can lose writes already answered (docs/operating.md).",
  }),
  secretsMainKey: mainKeys({
    name: "SECRETS_MAIN_KEY",
    maxEntries: 1,
    meaning:
      "The key that encrypts the secrets the service reads back (webhook signing secrets and Basic passwords, quote signing keys; AES-256-GCM) before they are stored: keep it outside the database and its backups (docs/secrets.md). Required with `DATABASE_URL` when `NODE_ENV=production`; unset otherwise, the key in the file `<PGLITE_DIR>.main-key` is used, generated (owner-only) at the first start. `npm run cli -- secrets new-key` makes one.",
  }),
  secretsReadKeys: mainKeys({
    name: "SECRETS_READ_KEYS",
    maxEntries: 8,
    meaning:
      "Other main keys this process decrypts with but never encrypts with: the key before a rotation until `npm run cli -- secrets rotate` has re-encrypted every secret, or the next key while instances are given it (docs/secrets.md, Rotating the main key).",
  }),
  dbConnectTimeoutMs: wholeNumber({
    name: "DB_CONNECT_TIMEOUT_MS",
    unit: "milliseconds",
    default: DEFAULT_TIMEOUTS.connectTimeoutMs,
    min: 100,
    max: 60_000,
    meaning:
      "PostgreSQL: how long opening a connection may take before the request answers `503 unavailable`. A request waiting for a free connection (all of the pool's 10 busy) waits up to this plus `DB_STATEMENT_TIMEOUT_MS`.",
  }),
  dbStatementTimeoutMs: wholeNumber({
    name: "DB_STATEMENT_TIMEOUT_MS",
    unit: "milliseconds",
    default: DEFAULT_TIMEOUTS.statementTimeoutMs,
    min: 100,
    max: 600_000,
    meaning:
      "PostgreSQL: how long one statement may run (the server cancels it; the client stops waiting 1 s later) before the request answers `503 unavailable`; migrations are not limited, CLI imports commit in slices within it.",
  }),
  shutdownDrainMs: wholeNumber({
    name: "SHUTDOWN_DRAIN_MS",
    unit: "milliseconds",
    default: 0,
    min: 0,
    max: 60_000,
    meaning:
      "Behind a load balancer: how long a stopping process (SIGTERM) keeps serving while `/readyz` answers `503`, each answer closing its connection, so that the balancer stops sending it requests before it closes its port; set it above the balancer's health-check interval times its failures-to-down (`deploy/haproxy.cfg`: 1 s). `0`: stop accepting at once.",
  }),
  logLevel: oneOf({
    name: "LOG_LEVEL",
    values: LOG_LEVELS,
    default: "info",
    meaning:
      "Least severe level logged: JSON logs on stdout with the request id. Request lines show query values that could identify a shopper (postal code, tags, searches) as `***`, except at `debug` and `trace`.",
  }),
  seedDemo: flag({
    name: "SEED_DEMO",
    default: true,
    meaning: "Create the demo accounts when the database has no merchant yet.",
  }),
  webhooks: {
    retrySchedule: secondsList({
      name: "WEBHOOK_RETRY_SCHEDULE",
      default: DEFAULT_RETRY_SCHEDULE,
      // retry_count is at most 1000 in the spec; 100 is far beyond any sane schedule.
      maxEntries: 100,
      maxSeconds: 7 * 86400,
      meaning:
        "Seconds to wait after the 1st, 2nd, … failed attempt of a webhook delivery (±20 % jitter), so its length + 1 is the number of attempts; when they are used up the delivery is `failed`.",
    }),
    timeoutMs: wholeNumber({
      name: "WEBHOOK_TIMEOUT_MS",
      unit: "milliseconds",
      default: 10_000,
      min: 1,
      max: 120_000,
      meaning: "One delivery attempt, connect to end of answer; longer counts as a failure.",
    }),
    allowPrivateNetworks: flag({
      name: "WEBHOOK_ALLOW_PRIVATE_NETWORKS",
      default: false,
      meaning:
        "`true` lets webhook URLs point at private, loopback and link-local addresses (local development, tests); keep it `false` in production, where merchant URLs are untrusted.",
    }),
    disableAfterFailingDays: wholeNumber({
      name: "WEBHOOK_DISABLE_AFTER_FAILING_DAYS",
      unit: "days",
      default: 5,
      min: 0,
      max: 365,
      zero: "never",
      meaning:
        "An endpoint whose every attempt has failed for this many days (no success in between) is disabled with a reason.",
    }),
  },
  deliveryRetentionDays: wholeNumber({
    name: "DELIVERY_RETENTION_DAYS",
    unit: "days",
    default: 30,
    min: 1,
    max: 3650,
    meaning: "Finished webhook deliveries and their events are deleted after this many days.",
  }),
  rateLimitPerMinute: wholeNumber({
    name: "RATE_LIMIT_PER_MINUTE",
    default: 6000,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Requests a minute per caller (merchant or operator), counted for all instances on one database together; beyond it `429 rate_limited` with `Retry-After`.",
  }),
  publishableKeyRequestsPerMinute: wholeNumber({
    name: "PUBLISHABLE_KEY_REQUESTS_PER_MINUTE",
    default: 600,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Requests a minute per publishable key (checkout pages), for all instances together; beyond it `429 rate_limited`. A key is public, so this bounds what anyone can spend with it.",
  }),
  publishableAddressRequestsPerMinute: wholeNumber({
    name: "PUBLISHABLE_KEY_REQUESTS_PER_ADDRESS",
    default: 120,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Requests a minute with publishable keys from one client address (as `TRUST_PROXY` tells it), over every key: one shopper's checkout needs a few, a scraper is stopped.",
  }),
  publishableKeySharePerAddress: wholeNumber({
    name: "PUBLISHABLE_KEY_SHARE_PER_ADDRESS",
    default: 30,
    min: 0,
    max: INT32_MAX,
    zero: "no share",
    meaning:
      "Requests a minute one client address may make with one publishable key: its share of the key's `PUBLISHABLE_KEY_REQUESTS_PER_MINUTE`, so that strangers at a few addresses cannot spend a shop's allowance and shut its checkout. Once a key's minute is spent anyway, an address that has made fewer than 5 requests with it that minute is still served (up to the key's allowance again), so a new shopper gets an answer.",
  }),
  anonymousRequestsPerAddress: wholeNumber({
    name: "ANONYMOUS_REQUESTS_PER_ADDRESS",
    default: 600,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Requests a minute from one client address (as `TRUST_PROXY` tells it) under the API's base path that no verified caller answers for: a path or method that matches no operation (`404`, `405`), no or wrong credentials (`401`), CORS preflights. Counted for all instances together, apart from the merchants at the same address; beyond it `429 rate_limited`, paced like other refusals.",
  }),
  quoteTtlSeconds: wholeNumber({
    name: "QUOTE_TTL_SECONDS",
    unit: "seconds",
    default: 3600,
    min: 60,
    max: 86_400,
    meaning:
      "How long a signed quote of a checkout page's answer is valid; an order with an older one is refused. A retired signing key stays published this long after it stops signing.",
  }),
  concurrentRequestsPerCaller: wholeNumber({
    name: "CONCURRENT_REQUESTS_PER_CALLER",
    default: 64,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Requests of one caller in progress at once, per server process; beyond it `429 rate_limited` with `Retry-After: 1`, so one caller's slow or heavy requests never take the whole server.",
  }),
  heavyRequestsPerCaller: wholeNumber({
    name: "HEAVY_REQUESTS_PER_CALLER",
    default: 4,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Of those, requests with a body over 16 KB: a caller's large writes wait for each other instead of taking the database pool and the CPU from other callers.",
  }),
  bodyBytesPerMinute: wholeNumber({
    name: "BODY_BYTES_PER_MINUTE",
    unit: "bytes",
    default: 32 * 2 ** 20,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Request body bytes a minute per caller, for all instances together (charged from `Content-Length` before the body is read, or as the bytes of a chunked body arrive); beyond it `429` with `Retry-After`.",
  }),
  responseBytesPerMinute: wholeNumber({
    name: "RESPONSE_BYTES_PER_MINUTE",
    unit: "bytes",
    default: 256 * 2 ** 20,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Response body bytes a minute per caller, for all instances together (a `HEAD` counts what its `GET` would send); once spent, further requests get `429` with `Retry-After` until the minute ends.",
  }),
  responseValidationPercent: wholeNumber({
    name: "RESPONSE_VALIDATION_PERCENT",
    min: 0,
    max: 100,
    meaning:
      "API answers checked against the spec before they are sent. Unset: `1` when `NODE_ENV=production`, else `100`. `100` (tests, CI, development) turns an answer that breaks the contract into `500 unknown`; below it (production: `1` to `5` is plenty, each check costs about as much as building the answer), a checked answer that breaks the contract is sent as it is, logged as an error and counted in `http_response_violations_total`. Requests are always checked.",
  }),
  loginFailuresPerAddress: wholeNumber({
    name: "LOGIN_FAILURES_PER_ADDRESS",
    default: 200,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning:
      "Failed sign-ins a client address may make in 15 minutes over all accounts, for all instances together; beyond it `429 rate_limited` with `Retry-After`.",
  }),
  loginFailuresPerAccount: wholeNumber({
    name: "LOGIN_FAILURES_PER_ACCOUNT",
    default: 10,
    min: 0,
    max: INT32_MAX,
    zero: "no limit",
    meaning: "Failed sign-ins a client address may make for one account in 15 minutes.",
  }),
  pickupPointsCacheSeconds: wholeNumber({
    name: "PICKUP_POINTS_CACHE_SECONDS",
    unit: "seconds",
    default: 60,
    min: 0,
    max: 86400,
    zero: "no cache",
    meaning:
      "How long a server reuses the nearest pickup points of a postal code (a postal code asked for again within as long once more gets them while one request refreshes them).",
  }),
  pickerMap: {
    tileUrl: tileUrlTemplate({
      name: "PICKER_MAP_TILE_URL",
      meaning:
        "The checkout picker's map: the tile server's URL template (your own, or a provider whose terms allow your traffic). Set, the picker offers a list/map switch for pickup points; its map code (Leaflet, served from this server) and the tiles load only when a shopper opens the map. Unset, no map, no map code and no request to any tile server (docs/checkout-picker.md).",
    }),
    attribution: text({
      name: "PICKER_MAP_ATTRIBUTION",
      allowed: "plain text, at most 300 characters; required with `PICKER_MAP_TILE_URL`",
      meaning:
        "The map data's credit line the tile provider asks for (e.g. `© OpenStreetMap contributors`), shown on the map as written.",
    }),
  },
  otelSdkDisabled: flag({
    name: "OTEL_SDK_DISABLED",
    default: false,
    meaning: "OpenTelemetry's switch: `true` turns traces off whatever else is set.",
  }),
  otelTracesExporter: text({
    name: "OTEL_TRACES_EXPORTER",
    allowed: "`otlp` or `none`",
    meaning:
      "`otlp` turns traces on (to `http://localhost:4318` unless an endpoint is set), `none` off; unset, traces are on when an OTLP endpoint is set (docs/operating.md, Traces).",
  }),
  otelEndpoint: url({
    name: "OTEL_EXPORTER_OTLP_ENDPOINT",
    schemes: ["http", "https"],
    meaning:
      "Where traces go over OTLP/HTTP (the collector's base URL; `/v1/traces` is added); setting it turns traces on. The exporter also reads `OTEL_EXPORTER_OTLP_HEADERS` and its other standard settings.",
  }),
  otelTracesEndpoint: url({
    name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    schemes: ["http", "https"],
    meaning: "The full URL for traces, instead of `OTEL_EXPORTER_OTLP_ENDPOINT`; setting it turns traces on.",
  }),
  otelServiceName: text({
    name: "OTEL_SERVICE_NAME",
    default: "logistics-api",
    allowed: "a name",
    meaning: "The service's name on its spans.",
  }),
  otelTracesSampler: oneOf({
    name: "OTEL_TRACES_SAMPLER",
    values: [
      "parentbased_always_on",
      "parentbased_always_off",
      "parentbased_traceidratio",
      "always_on",
      "always_off",
      "traceidratio",
    ] as const,
    default: "parentbased_always_on",
    meaning:
      "Which requests are traced: the standard samplers (`parentbased_*` follow the caller's `traceparent` decision, `traceidratio` keeps `OTEL_TRACES_SAMPLER_ARG` of them).",
  }),
  otelTracesSamplerArg: text({
    name: "OTEL_TRACES_SAMPLER_ARG",
    allowed: "a ratio from `0` to `1`",
    meaning: "The share of traces `traceidratio` samplers keep (default `1`).",
  }),
  otelBspScheduleDelayMs: wholeNumber({
    name: "OTEL_BSP_SCHEDULE_DELAY",
    unit: "milliseconds",
    default: 5000,
    min: 1,
    max: 60_000,
    meaning: "How often finished spans are sent.",
  }),
  metricsToken: text({
    name: "METRICS_TOKEN",
    allowed: "at least 16 characters",
    minLength: 16,
    meaning:
      "Serves `GET /metrics` on the API's port to requests with `Authorization: Bearer <token>`; unset, there is no `/metrics` there.",
  }),
  metricsPort: wholeNumber({
    name: "METRICS_PORT",
    min: 0,
    max: 65535,
    meaning:
      "Serves `GET /metrics` without a token on a port of its own, on `METRICS_HOST`: expose it only to your monitoring.",
  }),
  metricsHost: text({
    name: "METRICS_HOST",
    default: "127.0.0.1",
    allowed: "an address or host name",
    meaning: "Interface of `METRICS_PORT`.",
  }),
};
