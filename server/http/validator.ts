import * as OpenApiValidator from "express-openapi-validator";
import type { Request, RequestHandler } from "express";
import { matchedOperation } from "./express.ts";
import type { OpenAPIV3 } from "express-openapi-validator/dist/framework/types.js";
import { specDocument } from "../shared/spec-document.ts";
import { authorize, type SecurityRequirement } from "../auth/authorize.ts";
import type { OperationId, ValueRules } from "../operations.ts";
import { invalid, type ErrorDetail } from "../shared/errors.ts";
import { VALUE_RULES } from "../value-rules.ts";
import { toAppError } from "./errors.ts";

/**
 * The validator's middlewares in stages, so that the body is read knowing the operation: `match` finds the
 * operation (404/405); `authorize` checks the caller's role (401/403); `validate` checks parameters and the
 * parsed body, and the responses.
 */
export interface SpecValidator {
  match: RequestHandler[];
  authorize: RequestHandler;
  validate: RequestHandler[];
}

export interface ResponseChecks {
  /** Answers checked, in percent: 100 turns a violation into a 500; below, a violation is reported and sent. */
  percent: number;
  /** A checked answer broke the contract (percent < 100 only). */
  onViolation?: (operation: string, errors: unknown) => void;
}

/**
 * Starts preparing at once (~0.15 s at start, asynchronously; each operation compiles on first use); requests wait for
 * it. `rules`: each operation's value rules, run with the schema check (withValueRules).
 */
export function validator(
  responses: ResponseChecks = { percent: 100 },
  rules: ValueRules = VALUE_RULES,
  { fresh = false }: { fresh?: boolean } = {},
): SpecValidator {
  const sampled = responses.percent < 100;
  // Checking every answer, the validator's middlewares hold nothing of the app they serve: every app of the process
  // shares one (see CHECKING_EVERY_ANSWER). `fresh`: one of its own (a test that watches the library prepare).
  const all = sampled
    ? (takePrepared(responses) ?? openApiMiddlewares(responses))
    : fresh
      ? openApiMiddlewares()
      : (CHECKING_EVERY_ANSWER.all ??= openApiMiddlewares());
  // Named functions of express-openapi-validator 5.x; a release that renames them fails here at start.
  const split = all.findIndex((mw) => mw.name === "requestMiddleware");
  const names = all.map((mw) => mw.name).join(",");
  if (names !== "pathParamsMiddleware,metadataMiddleware,securityMiddleware,requestMiddleware,responseMiddleware") {
    throw new Error(`express-openapi-validator changed its middlewares (${names}): review server/http/validator.ts`);
  }
  // securityMiddleware only passes on with validateSecurity off: authorize() takes its place.
  const [checkRequest, checkResponse] = all.slice(split) as [RequestHandler, RequestHandler];
  // The response check hooks res.json when it runs: skipped, the answer is sent unchecked.
  const sampleResponse: RequestHandler = (req, res, next) =>
    Math.random() * 100 < responses.percent ? checkResponse(req, res, next) : next();
  return {
    match: all.slice(0, 2),
    authorize: authorize((specDocument() as { security?: SecurityRequirement[] }).security ?? []),
    validate: [withValueRules(checkRequest, rules), sampled ? sampleResponse : checkResponse],
  };
}

/**
 * The validator's middlewares when every answer is checked (tests, CI, development): built once per process. They
 * compile each operation's request and response schemas on its first request (Ajv walks the whole spec for each:
 * ~15 ms an operation and status), and keep nothing else but what the spec gives: the route table, the compiled
 * schemas, and a request's match on the request itself. The one thing done per app, express `app.param` for the
 * path parameters, is for routes with Express parameters, which the spec's routes under the base path are not (the
 * handlers read the validator's own `pathParams`, express.ts). In production one app is built per process anyway;
 * in the test suite a worker builds hundreds, and compiled them all again for each (every-operation, the fuzzer,
 * the mock's tables: seconds of processor time a file).
 */
const CHECKING_EVERY_ANSWER: { all?: RequestHandler[] } = {};

/** The middlewares prepareValidator made for a sample of answers, until the app's validator() takes them. */
let prepared: { all: RequestHandler[]; checks: ResponseChecks } | undefined;

/**
 * Starts the validator's preparation of the spec now, for the app the process builds next (serve.ts calls it before
 * it waits for the embedded database's opening, which the request thread would otherwise spend idle: the preparation,
 * ~70 ms of the request thread, then no longer comes after the opening on the path to ready; bench/levers.md section
 * 40). The next validator() with the same percentage takes these middlewares (returned, for the tests), and its
 * violations go to its own onViolation.
 */
export function prepareValidator(percent: number): RequestHandler[] {
  if (percent >= 100) return (CHECKING_EVERY_ANSWER.all ??= openApiMiddlewares());
  const checks: ResponseChecks = { percent };
  prepared = { all: openApiMiddlewares(checks), checks };
  return prepared.all;
}

function takePrepared(responses: ResponseChecks): RequestHandler[] | undefined {
  if (prepared?.checks.percent !== responses.percent) return undefined;
  const { all, checks } = prepared;
  prepared = undefined;
  // openApiMiddlewares' onError reads onViolation when an answer breaks the contract, never before.
  checks.onViolation = responses.onViolation;
  return all;
}

/** `sampled`: the checks of a sample of answers, whose violations go to its onViolation instead of becoming a 500. */
function openApiMiddlewares(sampled?: ResponseChecks): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The parsed spec as it is: the validator rewrites a deep copy of its own (its index.js, cloneDeep), and a second
    // copy here was 20-45 ms of every start (test/unit/spec-document.test.ts: the spec is left as it was).
    apiSpec: specDocument() as OpenAPIV3.DocumentV3_1,
    // Already bundled by `npm run generate` (internal references only): bundling it again gives the same document
    // (test/unit/spec-bundled.test.ts) and took ~100 ms of every start. "none" is our patch's (patches/).
    $refParser: { mode: "none" as "bundle" },
    // The document is checked against the OpenAPI schema by the test suite (redocly lint), not at each start (150 ms).
    validateApiSpec: false,
    // allErrors: a merchant fixing a request wants every offending field at once; bodies are capped at 1 MB.
    validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false, allErrors: true },
    validateResponses: {
      removeAdditional: false,
      // Sampled (production): the answer goes out as built; the violation is the operator's to see.
      ...(sampled && {
        onError: (err: { errors?: unknown }, _body: unknown, req: Request) =>
          sampled.onViolation?.(matchedOperation(req)?.operationId ?? "unmatched", err.errors),
      }),
    },
    // Roles are checked by authorize() (auth/authorize.ts), between match and validate.
    validateSecurity: false,
    validateFormats: true,
    ajvFormats: { mode: "full" },
    ignoreUndocumented: false,
    // JSON only: bodies are read by readJsonBody.
    fileUploader: false,
  }) as RequestHandler[];
}

/**
 * The schema check of a request and its operation's value rules as one pass, so that one 400 lists every problem:
 * the rules run whether the schema check passed or failed (they judge only the parts of the right type, see
 * ValueRule), and their details join the schema's. A rule's detail on a field the schema already named is left
 * out: that field's value is not of the shape its rules judge, and one path gets one word (never the same path
 * and code twice). Passed, the handler runs only if the rules found nothing either.
 */
function withValueRules(checkRequest: RequestHandler, rules: ValueRules): RequestHandler {
  return (req, res, next) =>
    checkRequest(req, res, (err?: unknown) => {
      const rule = rules[matchedOperation(req)?.operationId as OperationId];
      if (!rule) return next(err);
      const schema = err === undefined ? undefined : toAppError(err);
      // Anything but the request's own problems (a 415, say) goes on as it was.
      if (err !== undefined && schema?.code !== "validation_failed") return next(err);
      let found: ErrorDetail[];
      try {
        found = rule({ body: req.body, query: req.query });
      } catch (ruleErr) {
        // A rule is written never to throw; if one does on a body the schema refused, that refusal still stands.
        if (schema) return next(schema);
        return next(ruleErr);
      }
      if (!schema) return next(found.length ? invalid(found) : undefined);
      const named = new Set(schema.details.map((d) => d.path));
      next(invalid([...schema.details, ...found.filter((d) => !named.has(d.path))], schema.message));
    });
}
