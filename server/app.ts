// The app factory: builds the Express app for a database; never listens by itself.
import express, { type NextFunction, type Request } from "express";
import { sql } from "kysely";
import type { Logger } from "pino";
import { SharedWindowLimit, WindowCounter } from "./db/counters.ts";
import { authenticate } from "./auth/authenticate.ts";
import { portalSite } from "./portal/site.ts";
import { checkQuery, readJsonBody } from "./http/body-checks.ts";
import { errorHandler, notFoundHandler, sendError } from "./http/errors.ts";
import { strictQueryNumbers } from "./http/query-numbers.ts";
import { perCallerBodyBytes, perCallerConcurrency, perCallerRateLimit } from "./http/rate-limit.ts";
import { requestLog } from "./http/request-log.ts";
import { metricsHandler } from "./metrics/http.ts";
import type { Metrics } from "./metrics/metrics.ts";
import { specRoutes } from "./http/spec-routes.ts";
import { docsRoutes } from "./docs/routes.ts";
import { dispatch, type Handlers } from "./http/registry.ts";
import type { Res } from "./http/express.ts";
import { validator } from "./http/validator.ts";
import { AppError } from "./shared/errors.ts";
import type { Services } from "./services.ts";

export const BASE_PATH = "/2015-01-01";

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
  /** The implemented operations, when not the services' own: tests may pass a subset. */
  handlers?: Handlers;
  /** Counts requests; served at /metrics on this port only with `metricsToken` (else on a port of its own, or not at all). */
  metrics?: Metrics;
  metricsToken?: string;
  /** False for a worker process (SERVER_ROLE=worker): health, readiness and metrics only; the API is 404. */
  serveApi?: boolean;
  /** The built portal's folder (default dist/portal); tests build their own. */
  portalDir?: string;
}

export function createApp({
  services,
  logger,
  isAccepting = () => true,
  rateLimitPerMinute = 0,
  concurrentRequestsPerCaller = 0,
  heavyRequestsPerCaller = 0,
  bodyBytesPerMinute = 0,
  handlers = services.handlers,
  metrics,
  metricsToken,
  serveApi = true,
  portalDir,
}: AppOptions) {
  const { db } = services;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);
  // No ETag: a 304 is not in the contract, and hashing every response body costs time.
  app.set("etag", false);
  // node:querystring keeps every key, `__proto__` and `constructor` too, so the validator sees them.
  app.set("query parser", "simple");

  app.use(requestLog(logger));

  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get("/readyz", async (_req, res: Res) => {
    try {
      if (!isAccepting()) throw new Error("draining");
      await sql`select 1`.execute(db);
      res.json({ status: "ready" });
    } catch {
      res.setHeader("Retry-After", "5");
      sendError(res, new AppError("unavailable", "Not ready to serve requests."));
    }
  });
  if (metrics && metricsToken) app.get("/metrics", metricsHandler(metrics, metricsToken));
  if (!serveApi) {
    app.use(notFoundHandler);
    app.use(errorHandler);
    return app;
  }
  app.use(specRoutes(BASE_PATH));
  app.use(docsRoutes(BASE_PATH));
  app.use(portalSite(portalDir));

  const api = express.Router();
  if (metrics) api.use(metrics.observeRequests);
  const { match, validate } = validator();
  api.use(authenticate(services.authenticator, db));
  // Counts shared by every instance on the database; while it is away requests answer 503 anyway.
  let warnedAt = 0;
  const shared = (name: string, limit: number) =>
    new SharedWindowLimit(new WindowCounter(db, name, limit, 60), (err) => {
      // Once in a while, not every 100 ms of an outage: the connection errors are logged already.
      if (Date.now() - warnedAt < 10_000) return;
      warnedAt = Date.now();
      logger.warn({ err }, `could not share the ${name} count; this instance counts alone meanwhile`);
    });
  if (rateLimitPerMinute > 0) api.use(perCallerRateLimit(shared("requests", rateLimitPerMinute)));
  if (concurrentRequestsPerCaller > 0 || heavyRequestsPerCaller > 0)
    api.use(perCallerConcurrency(concurrentRequestsPerCaller, heavyRequestsPerCaller));
  if (bodyBytesPerMinute > 0) api.use(perCallerBodyBytes(shared("body-bytes", bodyBytesPerMinute)));
  api.use(headAsGet);
  api.use(match);
  api.use(readJsonBody());
  api.use(checkQuery);
  api.use(strictQueryNumbers());
  api.use(validate);
  api.use(dispatch(db, handlers));
  app.use(BASE_PATH, api);

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

/**
 * RFC 9110: HEAD wherever GET is served. The request is handled as the GET it mirrors; Node sends
 * the status and headers without the body, because the response was made for a HEAD request.
 */
function headAsGet(req: Request, _res: Res, next: NextFunction) {
  if (req.method === "HEAD") req.method = "GET";
  next();
}
