// Request id and one log line per request. Lighter than pino-http (no child logger per request):
// logging sat on the hot path's profile.
import { randomUUID } from "node:crypto";
import type { NextFunction, Request } from "express";
import type { Logger } from "pino";
import { matchedOperation, type Res } from "./express.ts";
import { loggableUrl } from "./loggable-url.ts";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(logger: Logger) {
  return (req: Request, res: Res, next: NextFunction) => {
    // Logged already: the API's entry (api-entry.ts) logs its requests before the app's layers see them.
    if (res.locals.requestId !== undefined) return next();
    const started = performance.now();
    const given = req.headers["x-request-id"];
    const id = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.locals.log = logger;
    res.setHeader("X-Request-Id", id);
    res.once("finish", () => {
      if (!logger.isLevelEnabled("info")) return;
      // Never credentials: only what identifies the request. Nor, above debug level (a developer's own machine),
      // query values that could identify a shopper (loggable-url.ts).
      const url = logger.isLevelEnabled("debug") ? req.originalUrl : loggableUrl(req.originalUrl);
      logger.info(
        {
          req: { id, method: req.method, url },
          operation: matchedOperation(req)?.operationId,
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
          principal: res.locals.principal?.name,
        },
        "request completed",
      );
    });
    next();
  };
}
