// The Express app under both the server (app.ts) and the mock (tools/mock/app.ts): the same settings, the same way
// of sending JSON and the same request log, so that the mock answers as the server does in all but the data.
import express, { type Express } from "express";
import type { Logger } from "pino";
import type { TrustProxy } from "../config/readers.ts";
import { sendJsonDirectly } from "./json-answer.ts";
import { requestLog } from "./request-log.ts";

/** `compareTexts`: see sendJsonDirectly (the server: where every answer is checked against the spec). */
export function expressBase(logger: Logger, trustProxy: TrustProxy = false, compareTexts = true): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxy);
  // No generated ETag: hashing every response body costs time. The resources replaced whole send their own (and a 304
  // for a matching If-None-Match, as the spec says).
  app.set("etag", false);
  // node:querystring keeps every key, `__proto__` and `constructor` too, so the validator sees them.
  app.set("query parser", "simple");
  sendJsonDirectly(app, compareTexts);
  app.use(requestLog(logger));
  return app;
}
