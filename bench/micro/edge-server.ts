// GET shipment's edge taken apart: the server's own app (configured as `npm start` configures it, without the
// worker), with only the pipeline's steps up to a cut, then the floor's answer (bench/micro/floor-server.ts: the
// statement through the server's own database handle, the row sent with res.json). Run by bench/micro/edge.ts, one
// process per cut:
//   node --import tsx bench/micro/edge-server.ts <port> <cut> <statement json file>
// <cut>: "none" (no step: the floor inside the server's app settings), "log" (the request log line), a step's
// name from pipelineSteps (server/http/pipeline.ts; a step's array counts as a whole), or "all" (the server's
// own dispatch instead of the floor's answer).
import { readFileSync } from "node:fs";
import express, { type RequestHandler } from "express";
import { CompiledQuery } from "kysely";
import { pino } from "pino";
import { BASE_PATH } from "../../server/app.ts";
import { DEFAULT_LOGIN_LIMITS } from "../../server/accounts/throttle.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { errorHandler, notFoundHandler } from "../../server/http/errors.ts";
import { pipelineSteps } from "../../server/http/pipeline.ts";
import { runSteps, type Step } from "../../server/http/steps.ts";
import { requestLog } from "../../server/http/request-log.ts";
import { createMetrics } from "../../server/metrics/metrics.ts";
import { createServices } from "../../server/services.ts";
import { loadMainKeys } from "../../server/secrets/key-source.ts";

const [port, cut, statementFile] = process.argv.slice(2);
if (!port || !cut || !statementFile) throw new Error("usage: see the file's header");
const { sql, parameters, idAt, authorization } = JSON.parse(readFileSync(statementFile, "utf8")) as {
  sql: string;
  parameters: unknown[];
  idAt: number;
  authorization: string;
};

const config = loadConfig();
const logger = pino({ level: config.logLevel });
const handle = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: config.pgliteDir,
  connectTimeoutMs: config.dbConnectTimeoutMs,
  statementTimeoutMs: config.dbStatementTimeoutMs,
  poolMode: config.dbPoolMode,
});
await migrateToLatest(handle.db);
const metrics = createMetrics(handle, { defaultMetrics: true });
const services = createServices({
  handle,
  logger,
  keys: (await loadMainKeys(config)).keys,
  webhooks: config.webhooks,
  pickupPointsCacheSeconds: config.pickupPointsCacheSeconds,
  quoteTtlSeconds: config.quoteTtlSeconds,
  loginLimits: { ...DEFAULT_LOGIN_LIMITS },
  worker: false,
});
await services.start();

// As createApp (server/app.ts) sets them.
const app = express();
app.disable("x-powered-by");
app.set("trust proxy", config.trustProxy);
app.set("etag", false);
app.set("query parser", "simple");
if (cut !== "none") app.use(requestLog(logger));

const steps = pipelineSteps({
  db: services.db,
  authenticator: services.authenticator,
  handlers: services.handlers,
  logger,
  observeRequests: metrics.observeRequests,
  gauge: metrics.gauge,
  rateLimitPerMinute: config.rateLimitPerMinute,
  concurrentRequestsPerCaller: config.concurrentRequestsPerCaller,
  heavyRequestsPerCaller: config.heavyRequestsPerCaller,
  bodyBytesPerMinute: config.bodyBytesPerMinute,
  responseBytesPerMinute: config.responseBytesPerMinute,
  publishableKeyRequestsPerMinute: config.publishableKeyRequestsPerMinute,
  publishableAddressRequestsPerMinute: config.publishableAddressRequestsPerMinute,
  publishableKeySharePerAddress: config.publishableKeySharePerAddress,
  anonymousRequestsPerAddress: config.anonymousRequestsPerAddress,
  responseValidationPercent: config.responseValidationPercent,
  countViolation: metrics.responseViolation,
});
const names = steps.map(([name]) => name);
if (!["none", "log", "all", ...names].includes(cut)) throw new Error(`no step named ${cut}: ${names.join(", ")}`);
const last = cut === "none" || cut === "log" ? -1 : cut === "all" ? steps.length - 1 : names.lastIndexOf(cut);
// As apiPipeline (server/http/pipeline.ts) runs them.
const chosen: Step[] = steps.slice(0, last + 1).flatMap(([, step]) => (step ? step : []));

if (cut !== "all") {
  const floor: RequestHandler = (req, res, next) => {
    if (req.headers.authorization !== authorization) return void res.status(401).end();
    const id = req.path.slice(req.path.lastIndexOf("/") + 1);
    const values = parameters.map((p, i) => (i === idAt ? id : p));
    // The server's database handle: named, on a shared connection (a pool's when neither can take it).
    handle.db.executeQuery(CompiledQuery.raw(sql, values)).then((r) => {
      if (!r.rows[0]) return void res.status(404).end();
      res.json(r.rows[0]);
    }, next);
  };
  chosen.push(floor);
}
app.use(BASE_PATH, runSteps(chosen));
app.use(notFoundHandler(BASE_PATH));
app.use(errorHandler);
const server = app.listen(Number(port), "127.0.0.1");
process.on("SIGTERM", () =>
  server.close(() => void services.stop().then(() => handle.close().then(() => process.exit(0)))),
);
