// The app factory: builds the Express app for a database; never listens by itself.
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type NextFunction, type Request } from "express";
import { sql } from "kysely";
import type { Logger } from "pino";
import { Authenticator } from "./accounts/domain.ts";
import type { Db } from "./db/database.ts";
import { authenticate } from "./http/auth.ts";
import { rejectNulCharacters, rejectUnexpectedBody } from "./http/body-checks.ts";
import { errorHandler, notFoundHandler, sendError } from "./http/errors.ts";
import { perCallerRateLimit } from "./http/rate-limit.ts";
import { requestLog } from "./http/request-log.ts";
import { specRoutes } from "./http/spec-routes.ts";
import { dispatch, type Handlers } from "./http/registry.ts";
import type { Res } from "./http/types.ts";
import { validator } from "./http/validator.ts";
import { handlers as allHandlers } from "./operations.ts";
import { AppError } from "./shared/errors.ts";
import { readWebhookSettings, type WebhookSettings } from "./webhooks/settings.ts";

export const BASE_PATH = "/2015-01-01";
export const SPEC_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../spec/openapi.yaml");

export interface AppOptions {
  db: Db;
  logger: Logger;
  /** False while starting or draining: /readyz answers 503 so a balancer stops sending traffic. */
  isAccepting?: () => boolean;
  /** Requests a minute per caller; 0 or absent: no limit. */
  rateLimitPerMinute?: number;
  /** The implemented operations; tests may pass a subset. */
  handlers?: Handlers;
  /** Checked webhook settings (config.ts); absent: the defaults. */
  webhooks?: WebhookSettings;
}

export function createApp({ db, logger, isAccepting = () => true, rateLimitPerMinute = 0, handlers = allHandlers, webhooks = readWebhookSettings({}).settings }: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);
  app.set("query parser", "extended");

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
  app.use(specRoutes(SPEC_PATH, BASE_PATH));

  const api = express.Router();
  api.use(authenticate(new Authenticator(db)));
  if (rateLimitPerMinute > 0) api.use(perCallerRateLimit(rateLimitPerMinute));
  api.use(requireJsonBody);
  api.use(express.json({ limit: "1mb" }));
  api.use(rejectNulCharacters);
  api.use(validator(SPEC_PATH));
  api.use(rejectUnexpectedBody);
  api.use(dispatch(db, handlers, { webhooks }));
  app.use(BASE_PATH, api);

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

/** A body we cannot read as JSON is refused before parsing, whatever the operation. */
function requireJsonBody(req: Request, _res: Res, next: NextFunction) {
  const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
  if (hasBody && !req.is("application/json")) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  next();
}
