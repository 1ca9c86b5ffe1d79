// The API's request pipeline: every step a request under the base path passes, in order, from the socket to its
// handler. Read top to bottom, this is the whole edge; each step's own file says how it works. app.ts mounts it.
import type { NextFunction, Request, RequestHandler } from "express";
import type { Logger } from "pino";
import type { Authenticator } from "../accounts/domain.ts";
import { authenticate } from "../auth/authenticate.ts";
import { publishableQueryLimits } from "../auth/authorize.ts";
import { sessionPrincipal } from "../auth/sessions.ts";
import { stationPrincipal } from "../warehouse/sessions.ts";
import type { Db } from "../db/database.ts";
import type { Handlers } from "../operations.ts";
import { admitJsonBody, checkQuery, readJsonBody } from "./body-checks.ts";
import type { Res } from "./express.ts";
import { strictQueryNumbers } from "./query-numbers.ts";
import {
  perCallerBodyBytes,
  perCallerConcurrency,
  perCallerRateLimit,
  perCallerResponseBytes,
  NEWCOMER_REQUESTS,
  publishableKeyLimits,
  sharedWindows,
  type SharedWindows,
} from "./rate-limit.ts";
import { fairShare } from "./fair-share.ts";
import { addressLimits, type AddressLimits } from "./address-limits.ts";
import { keyOrigins, preflight, readableRefusals } from "./cors.ts";
import { traceRequests, traceSteps } from "./tracing.ts";
import { paceRefusals } from "./refusal-pace.ts";
import { dispatch } from "./registry.ts";
import { runSteps, type Step } from "./steps.ts";
import { validator, type ResponseChecks } from "./validator.ts";

export interface PipelineOptions {
  db: Db;
  authenticator: Authenticator;
  handlers: Handlers;
  logger: Logger;
  /** Counts every request by operation and status (metrics/metrics.ts); absent: not counted. */
  observeRequests?: RequestHandler;
  /** Publishes a gauge read at each scrape (metrics/metrics.ts); absent: not published. */
  gauge?: (name: string, help: string, read: () => number) => void;
  /** Publishes a counter whose total is read at each scrape (metrics/metrics.ts); absent: not published. */
  counter?: (name: string, help: string, read: () => number) => void;
  /** Requests a minute per caller; 0: no limit. */
  rateLimitPerMinute: number;
  /** Requests in progress at once per caller, and of them with a large body; 0: no limit. */
  concurrentRequestsPerCaller: number;
  heavyRequestsPerCaller: number;
  /** Request body bytes a minute per caller; 0: no limit. */
  bodyBytesPerMinute: number;
  /** Response body bytes a minute per caller; 0: no limit. */
  responseBytesPerMinute: number;
  /** Requests a minute per publishable key, and per client address over every key; 0: no limit. */
  publishableKeyRequestsPerMinute?: number;
  publishableAddressRequestsPerMinute?: number;
  /** Requests a minute per client address with one key (its share of the key's); 0: none. */
  publishableKeySharePerAddress?: number;
  /** Requests a minute per client address that no verified caller answers for (404, 405, 401, preflights); 0: no limit. */
  anonymousRequestsPerAddress?: number;
  /** The per-address limit itself, when the app shares it with the pages outside the API (app.ts); absent: made here. */
  addresses?: AddressLimits;
  /** The refusals' pace, likewise shared with the pages outside the API; absent: made here. */
  pace?: ReturnType<typeof paceRefusals>;
  /** Answers checked against the spec, in percent (RESPONSE_VALIDATION_PERCENT); default 100. */
  responseValidationPercent?: number;
  /** Counts an answer that broke the contract (metrics/metrics.ts). */
  countViolation?: (operation: string) => void;
  /** The limits' windows (services.ts owns them, to flush them at a stop); absent: made here. */
  windows?: SharedWindows;
}

export function apiPipeline(o: PipelineOptions): RequestHandler {
  return runSteps(pipelineSteps(o).flatMap(([, step]) => (step ? step : [])));
}

type PipelineStep = Step | RequestHandler[] | false | undefined;

/** The pipeline's steps in order, each named (bench/micro/edge.ts measures what each one costs). */
export function pipelineSteps(o: PipelineOptions): [string, PipelineStep][] {
  const { route, checks } = requestStages({
    percent: o.responseValidationPercent ?? 100,
    onViolation: (operation, errors) => {
      o.logger.error({ operation, errors }, "an answer broke the API contract (sent as it was): a bug to fix");
      o.countViolation?.(operation);
    },
  });
  const shared = o.windows ?? sharedWindows(o.db, o.logger);
  const turns = fairShare();
  const addresses =
    o.addresses ??
    ((o.anonymousRequestsPerAddress ?? 0) > 0
      ? addressLimits(shared("anonymous-address", o.anonymousRequestsPerAddress ?? 0))
      : undefined);
  o.gauge?.(
    "http_requests_waiting_turn",
    "API requests read and checked, waiting for their caller's turn while other callers are active.",
    turns.waiting,
  );
  o.counter?.(
    "http_requests_waited_turn_total",
    "API requests that waited for their caller's turn while other callers were active.",
    turns.waitedTotal,
  );
  o.counter?.(
    "http_requests_waited_limit_total",
    "API requests that waited for a database round trip to learn their caller's total under a shared limit.",
    () => shared.waited(),
  );
  const checked = traceSteps("checks");
  return [
    // First, so that every answer is counted, refusals too.
    ["metrics", o.observeRequests],
    // The request's span, when tracing is on (tracing/tracer.ts).
    ["trace", traceRequests()],
    // Requests no verified caller answers for are counted per client address (address-limits.ts): here, one without
    // credentials from an address whose minute is spent is refused before anything else costs.
    ["address limit", addresses?.early],
    // A browser's preflight (CORS): answered here for the operations a publishable key may call, from any origin
    // (the request itself is checked); no operation is matched for it.
    ["preflight", preflight()],
    // Which operation (404/405), from the method and path alone: a request that cannot succeed costs no key
    // derivation (its route is public in the spec anyway).
    ["route", route],
    // Who is calling (401), before anything else costs: the limits count per caller, and no stranger's body is
    // read. (The login throttle is checked before any derivation; the limits below count verified callers only,
    // or a stranger could use up a merchant's allowance by naming it.)
    // A page's refusal (401, 403) is one it can read, so the checkout picker can say why it shows nothing.
    ["readable refusals", readableRefusals()],
    [
      "authenticate",
      authenticate(o.authenticator, {
        portal_session: (token) => sessionPrincipal(o.db, token),
        station_session: (token) => stationPrincipal(o.db, token),
      }),
    ],
    // A publishable key's page: only from an origin the key lists (403), with CORS headers on its answers.
    ["key origins", keyOrigins],
    // A publishable key's own allowances, per key and per client address (429).
    [
      "key limits",
      ((o.publishableKeyRequestsPerMinute ?? 0) > 0 ||
        (o.publishableAddressRequestsPerMinute ?? 0) > 0 ||
        (o.publishableKeySharePerAddress ?? 0) > 0) &&
        publishableKeyLimits({
          perKey: shared("publishable-key", o.publishableKeyRequestsPerMinute ?? 0),
          perAddress: shared("publishable-address", o.publishableAddressRequestsPerMinute ?? 0),
          share: shared("publishable-key-address", o.publishableKeySharePerAddress ?? 0),
          newcomer: shared("publishable-key-newcomer", NEWCOMER_REQUESTS),
          overflow: shared("publishable-key-overflow", o.publishableKeyRequestsPerMinute ?? 0),
        }),
    ],
    // The caller's limits (429), from the headers and what it spent, before the body is read (a chunked body is
    // charged as it arrives, in readJsonBody).
    ["rate limit", o.rateLimitPerMinute > 0 && perCallerRateLimit(shared("requests", o.rateLimitPerMinute))],
    [
      "concurrency",
      (o.concurrentRequestsPerCaller > 0 || o.heavyRequestsPerCaller > 0) &&
        perCallerConcurrency(o.concurrentRequestsPerCaller, o.heavyRequestsPerCaller),
    ],
    ["body bytes", o.bodyBytesPerMinute > 0 && perCallerBodyBytes(shared("body-bytes", o.bodyBytesPerMinute))],
    [
      "response bytes",
      o.responseBytesPerMinute > 0 && perCallerResponseBytes(shared("response-bytes", o.responseBytesPerMinute)),
    ],
    ["checks span", checked.open],
    ["checks", checks],
    ["checks span end", checked.close],
    // A 404, 405 or 401 is charged to the client's address, and past its minute is a 429.
    ["address refusals", addresses?.refusals],
    // A caller refused more than a few times a second waits for its further refusals (refusal-pace.ts): here,
    // after the checks, so that it sees the refusals of a chunked body's bytes too.
    ["refusal pace", o.pace ?? paceRefusals()],
    // Once read and checked, a request waits its turn while other callers are active (fair-share.ts).
    ["fair share", turns],
    // The operation's handler (501 when it has none).
    ["dispatch", dispatch(o.db, o.handlers)],
  ];
}

/**
 * Every check of a request's shape, in two stages around authentication: `route` finds the operation, `checks`
 * (once the caller is known) its role, body, query and the spec's rules. The mock (tools/mock) runs these same
 * stages around its own authentication in front of Prism, so that it refuses what the server refuses, with the
 * server's answer.
 */
export function requestStages(responses?: ResponseChecks): { route: RequestHandler[]; checks: RequestHandler[] } {
  const { match, authorize, validate } = validator(responses);
  return {
    route: [
      // Before matching: the spec declares no HEAD operations, only the GETs that HEAD mirrors.
      headAsGet,
      // Which operation (404/405).
      ...match,
      // Whether its body may be read at all (413/415), from the headers.
      admitJsonBody,
    ],
    checks: [
      // Whether the caller's role may call the operation (401/403), before the body is read.
      authorize,
      // The body (400, or 413/429 as a chunked one grows), read knowing whether the operation takes one.
      ...readJsonBody(),
      queryOnce,
      // What the validator does not check in queries: NUL characters, and numbers that are not decimal literals
      // (before the validator coerces them with Number()).
      checkQuery,
      strictQueryNumbers(),
      // The spec's checks of parameters and body (400 naming every problem; query defaults filled in), and of
      // the response on its way out (every one, or a sample: RESPONSE_VALIDATION_PERCENT).
      ...validate,
      // What a publishable key may not ask for among its operations' parameters (403), once they are coerced.
      publishableQueryLimits,
    ],
  };
}

/**
 * RFC 9110: HEAD wherever GET is served. The request is handled as the GET it mirrors; Node sends
 * the status and headers without the body, because the response was made for a HEAD request.
 */
function headAsGet(req: Request, _res: Res, next: NextFunction) {
  if (req.method === "HEAD") req.method = "GET";
  next();
}

/**
 * Express 5 parses the query string again at every read of `req.query` (a getter); the checks below and the
 * validator read it several times. Read once here, it stays as it is: the validator writes its coerced values into
 * this same object, as it does into the getter's.
 */
function queryOnce(req: Request, _res: Res, next: NextFunction) {
  Object.defineProperty(req, "query", { value: req.query, writable: true, configurable: true, enumerable: true });
  next();
}
