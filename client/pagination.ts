// Every page, or every item, of a list operation: follows `next_cursor` (and, for the events feed,
// stops when `has_more` is false). A page that fails throws ApiError: an iterator has no `error` to return.
import type { Client, MaybeOptionalInit } from "openapi-fetch";
import type { paths } from "../generated/api.ts";
import { ApiError, isErrorBody } from "./errors.ts";

/** The same type as index.ts's LogisticsClient, said here so that the two files do not import each other. */
type LogisticsClient = Client<paths, "application/json">;

type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];
type PageBody<P extends GetPath> = paths[P]["get"] extends {
  responses: { 200: { content: { "application/json": infer B } } };
}
  ? B
  : never;

/** The GET operations that answer `{ items, next_cursor }` and take a `cursor`. */
export type ListPath = {
  [P in GetPath]: PageBody<P> extends { items: unknown[]; next_cursor: string | null } ? P : never;
}[GetPath];
export type PageOf<P extends ListPath> = PageBody<P> & {
  items: unknown[];
  next_cursor: string | null;
  has_more?: boolean;
};
export type ItemOf<P extends ListPath> = PageBody<P> extends { items: (infer I)[] } ? I : never;
type ListInit<P extends ListPath> = MaybeOptionalInit<paths[P], "get">;

export async function* pages<P extends ListPath>(
  client: LogisticsClient,
  path: P,
  init?: ListInit<P>,
): AsyncGenerator<PageOf<P>, void, undefined> {
  const base = (init ?? {}) as { params?: { query?: Record<string, unknown>; path?: Record<string, unknown> } };
  let cursor = base.params?.query?.cursor as string | undefined;
  for (;;) {
    const params = { ...base.params, query: { ...base.params?.query, ...(cursor !== undefined && { cursor }) } };
    // The path and init are typed by the public signature; openapi-fetch's overloads cannot follow a generic P.
    const { data, error, response } = await (
      client.GET as (p: string, i: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>
    )(path, { ...base, params });
    if (!response.ok || data === undefined) throw new ApiError(response, isErrorBody(error) ? error : undefined);
    const page = data as PageOf<P>;
    yield page;
    if (page.next_cursor === null || page.has_more === false || page.next_cursor === cursor) return;
    cursor = page.next_cursor;
  }
}

export async function* paginate<P extends ListPath>(
  client: LogisticsClient,
  path: P,
  init?: ListInit<P>,
): AsyncGenerator<ItemOf<P>, void, undefined> {
  for await (const page of pages(client, path, init)) yield* page.items as ItemOf<P>[];
}
