// One registry of operations: each resource exports handlers keyed by the spec's operationId.
// The validator has already matched the request to an operation and checked it against the spec,
// so dispatching is a map lookup; an operationId without a handler is 501 not_implemented.
import type { NextFunction, Request } from "express";
import type { operations } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Db } from "../db/database.ts";
import { inTransaction, type Tx } from "../db/transaction.ts";
import type { JsonOf, OperationId, ParamsOf as Params, RequestBody } from "../shared/contract.ts";
import { AppError } from "../shared/errors.ts";
import { idempotent } from "../idempotency/index.ts";
export type { OperationId } from "../shared/contract.ts";
import { matchedOperation, pathParams, type Res } from "./express.ts";

type Op<Id extends OperationId> = operations[Id];

type SuccessStatus<Id extends OperationId> = Extract<keyof Op<Id>["responses"], 200 | 201 | 202>;

/** What a handler answers: a status the spec declares for the operation, with that status's body type. */
export type Reply<Id extends OperationId> =
  | {
      [S in SuccessStatus<Id>]: { status: S; body: JsonOf<Op<Id>["responses"][S]>; headers?: Record<string, string> };
    }[SuccessStatus<Id>]
  /** A replayed idempotent answer: the first response's JSON text, byte for byte. */
  | { status: number; replayJson: string };

export interface Context<Id extends OperationId> {
  db: Db;
  principal: Principal;
  path: Params<Id, "path">;
  query: Params<Id, "query">;
  body: RequestBody<Id>;
  /** Who is asking, as far as the connection tells: the peer's address (no proxy is trusted) and whether it came over TLS. */
  client: { address: string; https: boolean };
  /** The If-Match header as sent (optimistic concurrency of whole-resource writes); absent: no condition. */
  ifMatch: string | undefined;
  /** Runs `work` in one transaction (a domain call may span several resources). */
  transaction<T>(work: (trx: Tx) => Promise<T>): Promise<T>;
  /** Like transaction(), remembering the reply under the request's Idempotency-Key, if one was sent. */
  idempotent(work: (trx: Tx) => Promise<Reply<Id>>): Promise<Reply<Id>>;
}

export type Handler<Id extends OperationId> = (ctx: Context<Id>) => Promise<Reply<Id>>;
export type Handlers = { [Id in OperationId]?: Handler<Id> };
/** Handlers of a resource that needs operator settings: server/handlers.ts binds them to the settings. */
export type HandlersWith<S> = { [Id in OperationId]?: (ctx: Context<Id>, settings: S) => Promise<Reply<Id>> };

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
    const ctx: Context<OperationId> = {
      db,
      principal,
      path: path as never,
      query: req.query,
      body: req.body as never,
      client: { address: req.socket.remoteAddress ?? "unknown", https: req.secure },
      ifMatch: req.header("if-match"),
      transaction: (work) => inTransaction(db, work),
      idempotent: (work) =>
        idempotent(
          db,
          {
            principal: principal.name,
            key: req.header("idempotency-key"),
            operation: [id, ...Object.values(path)].join(":"),
            request: req.body,
          },
          work,
        ),
    };
    const reply = (await handler(ctx)) as {
      status: number;
      body?: unknown;
      replayJson?: string;
      headers?: Record<string, string>;
    };
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    if (reply.replayJson !== undefined) {
      res.setHeader("Idempotent-Replayed", "true");
      res.status(reply.status).type("application/json").send(reply.replayJson);
    } else {
      res.status(reply.status).json(reply.body);
    }
  };
}
