// What an operation's handler receives and answers: the contract between the HTTP edge, which dispatches a
// validated request (http/registry.ts), and every resource, which exports its handlers keyed by operationId.
// It lives outside http/ so that a resource's handlers never import the edge that calls them.
import type { operations } from "../generated/api.ts";
import type { Principal } from "./accounts/domain.ts";
import type { Db } from "./db/database.ts";
import type { Executor, Tx } from "./db/transaction.ts";
import type { JsonOf, OperationId, ParamsOf as Params, RequestBody, ValidatedQuery } from "./shared/contract.ts";
import type { ErrorDetail } from "./shared/errors.ts";
import type { BodySealer } from "./idempotency/index.ts";
export type { OperationId } from "./shared/contract.ts";

type Op<Id extends OperationId> = operations[Id];

// 300: a handler may answer "choose one of these" (portal sign-in for a person of several merchants).
type SuccessStatus<Id extends OperationId> = Extract<keyof Op<Id>["responses"], 200 | 201 | 202 | 300>;

// The success statuses whose answer is a page (text/html: a receiving label), not JSON.
type HtmlStatus<Id extends OperationId> = {
  [S in SuccessStatus<Id>]: Op<Id>["responses"][S] extends { content: { "text/html": unknown } } ? S : never;
}[SuccessStatus<Id>];

/** What a handler answers: a status the spec declares for the operation, with that status's body type. */
export type Reply<Id extends OperationId> =
  | {
      [S in Exclude<SuccessStatus<Id>, HtmlStatus<Id>>]: {
        status: S;
        body: JsonOf<Op<Id>["responses"][S]>;
        headers?: Record<string, string>;
      };
    }[Exclude<SuccessStatus<Id>, HtmlStatus<Id>>]
  /** A page the spec declares as text/html, sent as it is (with its own headers, e.g. its Content-Security-Policy). */
  | ([HtmlStatus<Id>] extends [never]
      ? never
      : { status: HtmlStatus<Id>; html: string; headers?: Record<string, string> })
  /** A replayed idempotent answer: the first response's JSON text, byte for byte. */
  | { status: number; replayJson: string };

export interface Context<Id extends OperationId> {
  db: Db;
  principal: Principal;
  path: Params<Id, "path">;
  /** The spec's query defaults are filled in (the validator did). */
  query: ValidatedQuery<Id>;
  body: RequestBody<Id>;
  /** Who is asking, as far as the connection tells: the peer's address (no proxy is trusted) and whether it came over TLS. */
  client: { address: string; https: boolean };
  /** The If-Match header as sent (optimistic concurrency of whole-resource writes); absent: no condition. */
  ifMatch: string | undefined;
  /** A request header as sent (a platform's signature), or undefined. */
  header(name: string): string | undefined;
  /** The body's bytes as they came (after any Content-Encoding), for a signature over them; undefined without a body. */
  rawBody: Buffer | undefined;
  /** Logs, with the request's id, a failure that the answer does not show (a handler that answers anyway). */
  logFailure(err: unknown, message: string): void;
  /** Runs `work` in one transaction (a domain call may span several resources). */
  transaction<T>(work: (trx: Tx) => Promise<T>): Promise<T>;
  /**
   * Like transaction(), remembering the reply under the request's Idempotency-Key, if one was sent; a reply that
   * holds a secret is remembered sealed with `opts.sealWith` (the main keys).
   */
  idempotent(work: (trx: Tx) => Promise<Reply<Id>>, opts?: { sealWith?: BodySealer }): Promise<Reply<Id>>;
  /**
   * Like idempotent(), for work that is atomic by itself (one statement, or a transaction it opens when it needs
   * one): without an Idempotency-Key it runs outside any transaction, so its one statement commits by itself,
   * with no begin or commit to wait for.
   */
  idempotentAtomic(work: (db: Executor) => Promise<Reply<Id>>): Promise<Reply<Id>>;
}

export type Handler<Id extends OperationId> = (ctx: Context<Id>) => Promise<Reply<Id>>;
export type Handlers = { [Id in OperationId]?: Handler<Id> };
/** Handlers of a resource that needs operator settings: server/handlers.ts binds them to the settings. */
export type HandlersWith<S> = { [Id in OperationId]?: (ctx: Context<Id>, settings: S) => Promise<Reply<Id>> };

/** What an operation's value rules see of a request: its body and query as sent (see ValueRule). */
export interface RuleInput {
  body: unknown;
  query: Record<string, unknown>;
}

/**
 * An operation's value rules: what its schema cannot say (check digits, cents, duplicates, real calendar dates...),
 * as details of the one 400. The request validator runs them with the schema check (http/validator.ts), whether that
 * passed or not, so that one answer lists every problem; when it passed, they run before the handler. So they read
 * the input as unknown, judge only the parts of the right type, and never throw. Rules that need stored data (a
 * referenced pickup point, a shipment's lines) stay in the domain.
 */
export type ValueRule = (input: RuleInput) => ErrorDetail[];
export type ValueRules = { [Id in OperationId]?: ValueRule };
