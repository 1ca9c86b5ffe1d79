// The last step of the pipeline: each resource exports handlers keyed by the spec's operationId (operations.ts).
// The validator has already matched the request to an operation and checked it against the spec,
// so dispatching is a map lookup; an operationId without a handler is 501 not_implemented.
import type { NextFunction, Request } from "express";
import type { Db } from "../db/database.ts";
import { inTransaction } from "../db/transaction.ts";
import { idempotent, idempotentAtomic } from "../idempotency/index.ts";
import type { Context, Handler, Handlers, OperationId } from "../operations.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Tx } from "../db/transaction.ts";
import { AppError } from "../shared/errors.ts";
import { inSpan, startSpan, tracing } from "../tracing/tracer.ts";
import { matchedOperation, pathParams, type Res } from "./express.ts";
import { rawBodyOf } from "./body-checks.ts";

/** What a handler gets of its request: one object a request, its methods on the prototype (no closures made each time). */
class RequestContext implements Context<OperationId> {
  readonly principal: Principal;
  readonly path: Context<OperationId>["path"];
  readonly query: Context<OperationId>["query"];
  readonly body: Context<OperationId>["body"];
  readonly ifMatch: string | undefined;
  readonly rawBody: Buffer | undefined;
  constructor(
    readonly db: Db,
    private readonly id: OperationId,
    private readonly req: Request,
    private readonly res: Res,
  ) {
    this.principal = res.locals.principal;
    this.path = pathParams(req) as never;
    this.query = req.query;
    this.body = req.body as never;
    this.ifMatch = req.header("if-match");
    this.rawBody = rawBodyOf(req);
  }
  get client(): Context<OperationId>["client"] {
    return { address: this.req.ip ?? "unknown", https: this.req.secure };
  }
  header(name: string): string | undefined {
    return this.req.header(name);
  }
  logFailure(err: unknown, message: string): void {
    this.res.locals.log?.error({ err, reqId: this.res.locals.requestId, operation: this.id }, message);
  }
  transaction<T>(work: (trx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }
  idempotent(
    work: Parameters<Context<OperationId>["idempotent"]>[0],
    opts?: Parameters<Context<OperationId>["idempotent"]>[1],
  ): ReturnType<Context<OperationId>["idempotent"]> {
    return idempotent(this.db, { ...this.scope(), sealWith: opts?.sealWith }, work);
  }
  idempotentAtomic(
    work: Parameters<Context<OperationId>["idempotentAtomic"]>[0],
  ): ReturnType<Context<OperationId>["idempotentAtomic"]> {
    return idempotentAtomic(this.db, this.scope(), work);
  }
  private scope() {
    return {
      principal: this.principal.name,
      key: this.req.header("idempotency-key"),
      operation: [this.id, ...Object.values(this.path as Record<string, string>)].join(":"),
      request: this.req.body as unknown,
    };
  }
}

/** Dispatches a validated request to its handler. */
export function dispatch(db: Db, handlers: Handlers) {
  return async (req: Request, res: Res, _next: NextFunction) => {
    const op = matchedOperation(req);
    if (!op?.operationId) throw new AppError("not_found", "No such resource.");
    const id = op.operationId as OperationId;
    const handler = handlers[id] as Handler<OperationId> | undefined;
    if (!handler) throw new AppError("not_implemented", "This operation is not available yet.");
    const ctx = new RequestContext(db, id, req, res);
    // Without tracing, no span's name, closure or extra promise a request.
    const reply = (await (tracing() ? inSpan(startSpan(`handler ${id}`), () => handler(ctx)) : handler(ctx))) as {
      status: number;
      body?: unknown;
      replayJson?: string;
      html?: string;
      headers?: Record<string, string>;
    };
    if (reply.headers) for (const name in reply.headers) res.setHeader(name, reply.headers[name]!);
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
