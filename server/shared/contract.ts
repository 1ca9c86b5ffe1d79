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

/**
 * The query parameters that have a spec `default` wherever they appear (test/unit/spec-defaults.test.ts holds this
 * list to the spec): the validator fills them in, so past it they are always present.
 */
export const DEFAULTED_QUERY_PARAMS = ["country", "explain", "limit", "sort"] as const;
export type DefaultedQueryParam = (typeof DEFAULTED_QUERY_PARAMS)[number];

/** An operation's query as the validator hands it on: with the spec's defaults filled in. */
export type ValidatedQuery<Id extends OperationId> = QueryOf<Id> &
  Required<Pick<QueryOf<Id>, Extract<keyof QueryOf<Id>, DefaultedQueryParam>>>;
