// GET /metrics for operators only: behind a bearer token on the API's port, or on a port of its own
// (bind it where only the monitoring system reaches). Never behind merchants' credentials.
import { timingSafeEqual, createHash } from "node:crypto";
import type { Request, RequestHandler } from "express";
import type { Metrics } from "./metrics.ts";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** `token` undefined: no check (the separate metrics port). */
export function metricsHandler(metrics: Metrics, token?: string): RequestHandler {
  return async (req: Request, res) => {
    if (token !== undefined) {
      const given = /^Bearer (.+)$/.exec(req.header("authorization") ?? "")?.[1] ?? "";
      if (!timingSafeEqual(digest(given), digest(token))) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
        return void res.status(401).type("text/plain").send("metrics need the operator's METRICS_TOKEN\n");
      }
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
}
