// Request/response types of an operation, taken from generated/ so handlers never restate them.
import type { Request, Response } from "express";
import type { operations } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";

export type OperationId = keyof operations;

type JsonOf<T> = T extends { content: { "application/json": infer B } } ? B : never;

export type RequestBody<Op extends OperationId> = JsonOf<NonNullable<operations[Op]["requestBody"]>>;
export type QueryOf<Op extends OperationId> = NonNullable<operations[Op]["parameters"]["query"]>;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Set by authenticate() for every request under the base path. */
      principal: Principal;
      requestId: string;
    }
  }
}

export type Res = Response;

/** The spec operation the validator matched this request to, if any. */
export function matchedOperation(req: Request): { operationId?: string; requestBody?: unknown } | undefined {
  return (req as Request & { openapi?: { schema?: { operationId?: string; requestBody?: unknown } } }).openapi?.schema;
}

export function principalOf(res: Res): Principal {
  return res.locals.principal;
}

export function pathId(req: Request, name: string): string {
  return String(req.params[name]);
}
