// The app factory: builds the Express app for a database; never listens by itself. App-level routes live here;
// everything under the base path but the spec's own files passes the API pipeline (http/pipeline.ts), which
// comes before the docs', portal's and picker's Routers so that an API request enters none of them.
import { sql } from "kysely";
import type { Logger } from "pino";
import { clientPackage, clientPackageRoutes } from "./docs/client-package.ts";
import { homeLinks, homePage, htmlOrJson } from "./docs/home.ts";
import { docsRoutes } from "./docs/routes.ts";
import { errorHandler, notFoundHandler, sendError } from "./http/errors.ts";
import type { Res } from "./http/express.ts";
import { derivations } from "./accounts/secrets.ts";
import { addressLimits } from "./http/address-limits.ts";
import { apiPipeline } from "./http/pipeline.ts";
import { paceRefusals } from "./http/refusal-pace.ts";
import { expressBase } from "./http/express-base.ts";
import { addSpecRoutes } from "./http/spec-routes.ts";
import { metricsHandler } from "./metrics/http.ts";
import type { Metrics } from "./metrics/metrics.ts";
import type { Handlers } from "./operations.ts";
import { portalSite } from "./portal/site.ts";
import { pickerSite, type PickerMap } from "./picker/site.ts";
import { AppError } from "./shared/errors.ts";
import type { TrustProxy } from "./config/readers.ts";
import type { Services } from "./services.ts";
import { BASE_PATH } from "../generated/base-path.ts";
import { reads } from "./db/statement-ways.ts";
import { answersWhenDurable } from "./http/durable-answers.ts";
import { registerApiEntry } from "./http/api-entry.ts";
import { requestLog } from "./http/request-log.ts";

export { BASE_PATH };

export interface AppOptions {
  /** What the instance owns (services.ts): the database, handlers, caches, authenticator. */
  services: Services;
  logger: Logger;
  /** False while starting or draining: /readyz answers 503 so a balancer stops sending traffic. */
  isAccepting?: () => boolean;
  /** Requests a minute per caller; 0 or absent: no limit. */
  rateLimitPerMinute?: number;
  /** Requests in progress at once per caller, and of them with a large body; 0 or absent: no limit. */
  concurrentRequestsPerCaller?: number;
  heavyRequestsPerCaller?: number;
  /** Request body bytes a minute per caller; 0 or absent: no limit. */
  bodyBytesPerMinute?: number;
  /** Requests a minute per publishable key, and per client address over every key; 0 or absent: no limit. */
  publishableKeyRequestsPerMinute?: number;
  publishableAddressRequestsPerMinute?: number;
  /** Requests a minute per client address with one publishable key (its share of the key's); 0 or absent: none. */
  publishableKeySharePerAddress?: number;
  /** Requests a minute per client address that no verified caller answers for (404, 405, 401, preflights); 0 or absent: no limit. */
  anonymousRequestsPerAddress?: number;
  /** Response body bytes a minute per caller; 0 or absent: no limit. */
  responseBytesPerMinute?: number;
  /** Answers checked against the spec, in percent (default 100: every one). */
  responseValidationPercent?: number;
  /** The implemented operations, when not the services' own: tests may pass a subset. */
  handlers?: Handlers;
  /** Counts requests; served at /metrics on this port only with `metricsToken` (else on a port of its own, or not at all). */
  metrics?: Metrics;
  metricsToken?: string;
  /** False for a worker process (SERVER_ROLE=worker): health, readiness and metrics only; the API is 404. */
  serveApi?: boolean;
  /** The built portal's folder (default dist/portal); tests build their own. */
  portalDir?: string;
  /** Where `npm run build` packs the client package for download (default dist/client). */
  clientDir?: string;
  /** The checkout picker's built folder (default dist/picker); tests build their own. */
  pickerDir?: string;
  /** Serve the demo shop page (/demo/checkout): with SEED_DEMO. */
  demoPages?: boolean;
  /** The picker's map (PICKER_MAP_TILE_URL and its credit line); absent: no map. */
  pickerMap?: PickerMap;
  /** TRUST_PROXY: whose forwarding headers give the client's address and scheme (req.ip, req.secure). */
  trustProxy?: TrustProxy;
}

export function createApp({
  services,
  logger,
  isAccepting = () => true,
  rateLimitPerMinute = 0,
  concurrentRequestsPerCaller = 0,
  heavyRequestsPerCaller = 0,
  bodyBytesPerMinute = 0,
  publishableKeyRequestsPerMinute = 0,
  publishableAddressRequestsPerMinute = 0,
  publishableKeySharePerAddress = 0,
  anonymousRequestsPerAddress = 0,
  responseBytesPerMinute = 0,
  responseValidationPercent = 100,
  handlers = services.handlers,
  metrics,
  metricsToken,
  serveApi = true,
  portalDir,
  clientDir,
  pickerDir,
  demoPages = false,
  pickerMap,
  trustProxy = false,
}: AppOptions) {
  const { db } = services;
  // Where every answer is checked (tests, CI, development), answers sent as their own text are compared too.
  const app = expressBase(logger, trustProxy, responseValidationPercent >= 100);
  // Before every route: no answer leaves before the commits it may show are on the disk (embedded database).
  const durable = services.durable && answersWhenDurable(services.durable);
  if (durable) app.use(durable);
  // One bucket per client address for the requests no verified caller answers for, inside the API and outside it
  // (a path that is no page, no file and no operation costs the site's routers a look each).
  const addresses =
    anonymousRequestsPerAddress > 0
      ? addressLimits(services.windows("anonymous-address", anonymousRequestsPerAddress))
      : undefined;
  // And one pace for an address's refusals, wherever they are answered (a flood of 429s is a flood too).
  const pace = paceRefusals();

  // The API first: its requests pass the request log, the two spec files and then the API's own mount, no other
  // route test (the routes below do not start with the base path).
  if (serveApi) {
    metrics?.gauge(
      "key_derivations_waiting_anonymous",
      "Key derivations (password and secret checks) of unknown callers waiting for a slot.",
      () => derivations.waiting().anonymous,
    );
    metrics?.gauge(
      "key_derivations_waiting_accounts",
      "Key derivations of known merchants, operators and portal users waiting for a slot.",
      () => derivations.waiting().accounts,
    );
    const specPaths = addSpecRoutes(app, BASE_PATH);
    const pipeline = apiPipeline({
      db,
      authenticator: services.authenticator,
      handlers,
      logger,
      observeRequests: metrics?.observeRequests,
      gauge: metrics?.gauge,
      counter: metrics?.counter,
      rateLimitPerMinute,
      concurrentRequestsPerCaller,
      heavyRequestsPerCaller,
      bodyBytesPerMinute,
      responseBytesPerMinute,
      publishableKeyRequestsPerMinute,
      publishableAddressRequestsPerMinute,
      publishableKeySharePerAddress,
      anonymousRequestsPerAddress,
      addresses,
      pace,
      responseValidationPercent,
      countViolation: metrics?.responseViolation,
      windows: services.windows,
    });
    // The API's requests enter from the server's listener (api-entry.ts): the same request log and durable answers,
    // then the pipeline; these two layers stand where its mount stood.
    const { mount, resume } = registerApiEntry(app, {
      basePath: BASE_PATH,
      appPaths: specPaths,
      before: [requestLog(logger), ...(durable ? [durable] : [])],
      pipeline,
    });
    app.use(BASE_PATH, mount);
    app.use(resume);
  }

  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get("/readyz", async (_req, res: Res) => {
    try {
      if (!isAccepting()) throw new Error("draining");
      await sql`select 1`.withPlugin(reads).execute(db);
      res.json({ status: "ready" });
    } catch {
      res.setHeader("Retry-After", "5");
      sendError(res, new AppError("unavailable", "Not ready to serve requests."));
    }
  });
  if (metrics && metricsToken) app.get("/metrics", metricsHandler(metrics, metricsToken));
  if (!serveApi) {
    app.use(notFoundHandler(BASE_PATH));
    app.use(errorHandler);
    return app;
  }
  // Outside the API too, an address whose minute of such requests is spent is refused before the site's routers look.
  if (addresses) app.use(addresses.early);
  // Where a person who opens the server's address in a browser, or an integrator's first curl, should go next.
  const links = homeLinks(clientPackage().path);
  app.get("/", (req, res) => htmlOrJson(req, res, () => homePage(links), links));
  // After the API: its requests never enter these Routers (each mounted at "/", each entered and left otherwise).
  app.use(docsRoutes(BASE_PATH));
  app.use(clientPackageRoutes(clientDir));
  app.use(portalSite(portalDir));
  app.use(pickerSite({ dir: pickerDir, demo: demoPages, map: pickerMap }));

  app.use(notFoundHandler(BASE_PATH));
  if (addresses) app.use(addresses.refusals, pace);
  app.use(errorHandler);
  return app;
}
