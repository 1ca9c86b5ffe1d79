// Request types of the spec's operations, taken from generated/ so that no layer restates them.
import type { operations } from "../../generated/api.ts";

export type OperationId = keyof operations;
type Op<Id extends OperationId> = operations[Id];

export type JsonOf<T> = T extends { content: { "application/json": infer B } } ? B : never;
export type ParamsOf<Id extends OperationId, In extends "path" | "query" | "header"> = NonNullable<
  Op<Id>["parameters"][In]
>;
export type RequestBody<Id extends OperationId> = JsonOf<NonNullable<Op<Id>["requestBody"]>>;
export type QueryOf<Id extends OperationId> = ParamsOf<Id, "query">;
