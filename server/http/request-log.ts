// Request id and one log line per request. Lighter than pino-http (no child logger per request):
// logging sat on the hot path's profile.
import { randomUUID } from "node:crypto";
import type { NextFunction, Request } from "express";
import type { Logger } from "pino";
import type { Res } from "./express.ts";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(logger: Logger) {
  return (req: Request, res: Res, next: NextFunction) => {
    const started = performance.now();
    const given = req.headers["x-request-id"];
    const id = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.locals.log = logger;
    res.setHeader("X-Request-Id", id);
    res.once("finish", () => {
      if (!logger.isLevelEnabled("info")) return;
      // Never credentials: only what identifies the request.
      logger.info(
        {
          req: { id, method: req.method, url: req.originalUrl },
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
