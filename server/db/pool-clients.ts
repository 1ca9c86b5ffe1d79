// The one place the pool's clients are wrapped for Kysely: each statement a client sends goes through a policy of
// how to send it (named, on a direct connection: named-statements.ts; with its transaction's time limits, through a
// transaction-mode pooler: pooler.ts) and, while a request or delivery is traced, in a span of its own.
import type pg from "pg";
import { traced } from "../tracing/tracer.ts";

type Query = (...args: unknown[]) => Promise<unknown>;
/** Sends one statement with the client's own `query` (`client` for what a policy needs of the connection). */
export type Send = (query: Query, text: unknown, values?: unknown[], client?: pg.PoolClient) => Promise<unknown>;

/** As the client would send it itself. */
export const sendPlain: Send = (query, text, values) => (values === undefined ? query(text) : query(text, values));

/** What Kysely's PostgresDialect needs of a pool, with clients that send each statement by `send`. */
export function sendingPool(pool: pg.Pool, send: Send) {
  const wrapped = new WeakSet<pg.PoolClient>();
  const wrap = (client: pg.PoolClient) => {
    if (wrapped.has(client)) return client;
    wrapped.add(client);
    const query = client.query.bind(client) as Query;
    (client as { query: unknown }).query = (text: unknown, values?: unknown[]) =>
      traced(text, () => send(query, text, values, client));
    return client;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
