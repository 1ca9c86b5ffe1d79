// The composition root: everything one app instance owns, built in one place for `npm start` and the tests.
// The caches are invalidated across instances: a change committed anywhere on the database (another
// instance, the CLI's import) sends NOTIFY caches_changed in its transaction, and every instance listening
// forgets what it kept; the writing instance also forgets at once, not waiting for its own notification.
import type { Logger } from "pino";
import { Authenticator } from "./accounts/domain.ts";
import { DEFAULT_LOGIN_LIMITS, LoginThrottle, type LoginThrottleLimits } from "./accounts/throttle.ts";
import type { DatabaseHandle, Db } from "./db/database.ts";
import { CACHES_CHANNEL } from "./db/cache-signal.ts";
import { createHandlers, type Caches } from "./handlers.ts";
import type { Handlers } from "./operations.ts";
import { Housekeeping } from "./housekeeping.ts";
import { sharedWindows, type SharedWindows } from "./http/rate-limit.ts";
import type { Nearest } from "./pickup-points/lookup.ts";
import { TtlCache } from "./shared/ttl-cache.ts";
import type { Quoter } from "./quotes/quotes.ts";
import { SigningKeys } from "./quotes/signing-keys.ts";
import { systemClock, type Clock } from "./shared/clock.ts";
import type { ShippingConfig } from "./shipping/merchant-config.ts";
import { Dispatcher, type DispatcherOptions } from "./webhooks/dispatcher.ts";
import type { WebhookSettings } from "./webhooks/settings.ts";
import { prepareSecretsAtRest } from "./secrets/at-rest.ts";
import type { MainKeys } from "./secrets/main-keys.ts";

export type { Caches };

export interface ServicesOptions {
  handle: Pick<DatabaseHandle, "db" | "kind" | "listen" | "durable">;
  logger: Logger;
  webhooks: WebhookSettings;
  /** The main keys the stored secrets are sealed under (secrets/key-source.ts). */
  keys: MainKeys;
  /** How long nearest-pickup-point answers are kept; 0: never. */
  pickupPointsCacheSeconds?: number;
  /** How long a signed quote is valid (QUOTE_TTL_SECONDS; default an hour). */
  quoteTtlSeconds?: number;
  loginLimits?: LoginThrottleLimits;
  /** Where answers read "now" (delivery estimates, quotes); default the system clock, a test clock in tests. */
  clock?: Clock;
  /** Run the worker: the webhook dispatcher and the housekeeping. */
  worker?:
    | false
    | {
        deliveryRetentionDays: number;
        dispatcher?: Omit<DispatcherOptions, "handle" | "settings" | "keys" | "logger">;
      };
}

export interface Services {
  db: Db;
  /** Resolves once the commits answered so far are on the disk; absent when every commit waits for it itself. */
  durable?: () => Promise<void>;
  caches: Caches;
  handlers: Handlers;
  authenticator: Authenticator;
  quoter: Quoter;
  clock: Clock;
  dispatcher?: Dispatcher;
  housekeeping?: Housekeeping;
  /** The limits' minute windows, shared by the instances; flushed by a stopping instance before the database closes. */
  windows: SharedWindows;
  /**
   * Seals the secrets a release before stored plain and checks that every stored secret opens with the keys
   * held (else throws, saying which key is missing), listens for cache changes and starts the worker, if any.
   * Resolves to how many plain secrets it sealed.
   */
  start(): Promise<{ sealed: number }>;
  /** Stops the worker (finishing deliveries in flight) and the listening; the database stays open. */
  stop(): Promise<void>;
}

const SHIPPING_CONFIG_TTL_MS = 1000;

export function createServices(opts: ServicesOptions): Services {
  const { db } = opts.handle;
  const caches: Caches = {
    directory: new TtlCache<Nearest>((opts.pickupPointsCacheSeconds ?? 60) * 1000, 5_000),
    shippingConfig: new TtlCache<ShippingConfig>(SHIPPING_CONFIG_TTL_MS),
  };
  const worker = opts.worker || undefined;
  const dispatcher = worker
    ? new Dispatcher({
        handle: opts.handle,
        settings: opts.webhooks,
        keys: opts.keys,
        logger: opts.logger,
        ...worker.dispatcher,
      })
    : undefined;
  const housekeeping = worker
    ? new Housekeeping({
        db,
        logger: opts.logger,
        deliveryRetentionDays: worker.deliveryRetentionDays,
        embedded: opts.handle.kind === "pglite",
      })
    : undefined;
  let unlisten: (() => Promise<void>) | undefined;
  const loginThrottle = new LoginThrottle(db, opts.loginLimits ?? DEFAULT_LOGIN_LIMITS);
  const quoteTtlMs = (opts.quoteTtlSeconds ?? 3600) * 1000;
  const clock = opts.clock ?? systemClock;
  const quoter: Quoter = { keys: new SigningKeys(db, quoteTtlMs, opts.keys), ttlMs: quoteTtlMs, clock };
  const authenticator = new Authenticator(db, loginThrottle);
  return {
    db,
    durable: opts.handle.durable,
    caches,
    handlers: createHandlers({ webhooks: opts.webhooks, caches, loginThrottle, quoter, clock, keys: opts.keys }),
    authenticator,
    quoter,
    clock,
    dispatcher,
    housekeeping,
    windows: sharedWindows(db, opts.logger),
    async start() {
      // Before anything reads a secret: a wrong or missing main key stops the start here.
      const { sealed } = await prepareSecretsAtRest(db, opts.keys);
      // Also called after the listener reconnects: anything may have changed meanwhile.
      unlisten = await opts.handle.listen(
        CACHES_CHANNEL,
        () => {
          caches.directory.clear();
          caches.shippingConfig.clear();
          authenticator.forgetPublishableKeys();
          authenticator.forgetCredentials();
          quoter.keys.forget();
        },
        (err) =>
          opts.logger.warn(
            { err },
            "listening for cache changes failed; reconnecting (cached answers expire by themselves meanwhile)",
          ),
      );
      await quoter.keys.ensure();
      await dispatcher?.start();
      housekeeping?.start();
      return { sealed };
    },
    async stop() {
      await Promise.all([dispatcher?.stop(), housekeeping?.stop()]);
      await unlisten?.();
    },
  };
}
