// The last step of the pipeline: each resource exports handlers keyed by the spec's operationId (operations.ts).
// The validator has already matched the request to an operation and checked it against the spec,
// so dispatching is a map lookup; an operationId without a handler is 501 not_implemented.
import type { NextFunction, Request } from "express";
import type { Db } from "../db/database.ts";
import { inTransaction } from "../db/transaction.ts";
import { idempotent, idempotentAtomic } from "../idempotency/index.ts";
import type { Context, Handler, Handlers, OperationId } from "../operations.ts";
import { AppError } from "../shared/errors.ts";
import { inSpan, startSpan } from "../tracing/tracer.ts";
import { matchedOperation, pathParams, type Res } from "./express.ts";
import { rawBodyOf } from "./body-checks.ts";

/** Dispatches a validated request to its handler. */
export function dispatch(db: Db, handlers: Handlers) {
  return async (req: Request, res: Res, _next: NextFunction) => {
    const op = matchedOperation(req);
    if (!op?.operationId) throw new AppError("not_found", "No such resource.");
    const id = op.operationId as OperationId;
    const handler = handlers[id] as Handler<OperationId> | undefined;
    if (!handler) throw new AppError("not_implemented", "This operation is not available yet.");
    const principal = res.locals.principal;
    const path = pathParams(req);
    const scope = () => ({
      principal: principal.name,
      key: req.header("idempotency-key"),
      operation: [id, ...Object.values(path)].join(":"),
      request: req.body as unknown,
    });
    const ctx: Context<OperationId> = {
      db,
      principal,
      path: path as never,
      query: req.query,
      body: req.body as never,
      client: { address: req.ip ?? "unknown", https: req.secure },
      ifMatch: req.header("if-match"),
      header: (name) => req.header(name),
      rawBody: rawBodyOf(req),
      logFailure: (err, message) => res.locals.log?.error({ err, reqId: res.locals.requestId, operation: id }, message),
      transaction: (work) => inTransaction(db, work),
      idempotent: (work, opts) => idempotent(db, { ...scope(), sealWith: opts?.sealWith }, work),
      idempotentAtomic: (work) => idempotentAtomic(db, scope(), work),
    };
    const reply = (await inSpan(startSpan(`handler ${id}`), () => handler(ctx))) as {
      status: number;
      body?: unknown;
      replayJson?: string;
      html?: string;
      headers?: Record<string, string>;
    };
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    if (reply.html !== undefined) {
      res.status(reply.status).type("html").send(reply.html);
    } else if (reply.replayJson !== undefined) {
      res.setHeader("Idempotent-Replayed", "true");
      res.status(reply.status).type("application/json").send(reply.replayJson);
    } else {
      res.status(reply.status).json(reply.body);
    }
  };
}
