// The one place the pool's clients are wrapped for Kysely: each statement a client sends goes through a policy of
// how to send it (named, on a direct connection: named-statements.ts; with its transaction's time limits, through a
// transaction-mode pooler: pooler.ts) and, while a request or delivery is traced, in a span of its own.
import type pg from "pg";
import { traced } from "../tracing/tracer.ts";
import { sessionRounds } from "./session-rounds.ts";
import type { RoutedClient, RoutedPool } from "./dialect.ts";
import type { SharedConnections } from "./shared-connections.ts";
import type { Way } from "./statement-ways.ts";
import { writeBatches } from "./write-batches.ts";

type Query = (...args: unknown[]) => Promise<unknown>;
/** Sends one statement with the client's own `query` (`client` for what a policy needs of the connection). */
export type Send = (query: Query, text: unknown, values?: unknown[], client?: pg.PoolClient) => Promise<unknown>;

/** As the client would send it itself. */
export const sendPlain: Send = (query, text, values) => (values === undefined ? query(text) : query(text, values));

// How a statement sent outside a transaction goes is said where it is made (statement-ways.ts). A read shares a
// pipelined connection. A write goes in a batch (write-batches.ts), not on a shared connection: it commits by itself and
// waits for its WAL flush, and every statement sent behind it there would wait for that flush too (a slow disk stalled
// GET shipment's p99 to 848 ms in a benchmark round that shared them). Anything else takes a pool connection of its own.

/**
 * How statements outside a transaction go: on PostgreSQL, reads on shared connections (shared-connections.ts) and
 * writes in batches (write-batches.ts); on the embedded database's one session, both in rounds (session-rounds.ts).
 * Neither through a transaction-mode pooler: each statement takes a pool connection.
 */
export type Outside = { shared: SharedConnections } | { session: true };

/**
 * A pool for the service's dialect (dialect.ts), with clients that send each statement by `send`. With `outside`, a
 * statement outside a transaction goes its way (its third argument) when it can: the client Kysely gets holds a pool
 * connection only from its first statement that cannot (a `begin`, a statement of its own way, or a read when every
 * shared connection is busy) until it is released.
 */
export function sendingPool(pool: pg.Pool, send: Send, outside?: Outside): RoutedPool {
  /** Each pool client's own query, before it was wrapped. */
  const own = new WeakMap<pg.PoolClient, Query>();
  const wrap = (client: pg.PoolClient) => {
    if (own.has(client)) return client;
    const query = client.query.bind(client) as Query;
    own.set(client, query);
    (client as { query: unknown }).query = (text: unknown, values?: unknown[], _way?: Way, untimed?: boolean) =>
      traced(text, () =>
        untimed ? withoutWait(client, () => send(query, text, values, client)) : send(query, text, values, client),
      );
    return client;
  };
  // A pool client's query takes (text, values): the way, a third argument, is not read (nothing goes another way).
  if (!outside) return { connect: async () => wrap(await pool.connect()), end: () => pool.end() };
  const connectOwn = async () => {
    const client = wrap(await pool.connect());
    return { client, query: own.get(client)! };
  };
  const shared = "shared" in outside ? outside.shared : undefined;
  // What does not go on a shared connection goes with others: writes in batches, or everything in the session's rounds.
  const together = shared ? writeBatches(connectOwn, send) : sessionRounds(connectOwn, send);
  // Kysely keeps its connection object per client: the clients it is given are reused, not made per statement.
  const free: SharingClient[] = [];
  const sharingClient = (): SharingClient => {
    let held: Promise<pg.PoolClient> | undefined;
    const client: SharingClient = {
      query: (text: string, values?: unknown[], way: Way = "own", untimed?: boolean) => {
        if (held) way = "own";
        if (way === "read" && shared) {
          const sharedQuery = shared.take();
          if (sharedQuery) return traced(text, () => send(sharedQuery, text, values));
        } else if (way === "write" || way === "read") return traced(text, () => together.send(text, values));
        held ??= pool.connect().then(wrap);
        return held.then((c) => (c.query as RoutedClient["query"])(text, values ?? [], way, untimed));
      },
      release: (err?: Error | boolean) => {
        const taken = held;
        held = undefined;
        free.push(client);
        if (taken)
          taken.then(
            (c) => c.release(err),
            () => {},
          );
      },
    };
    return client;
  };
  return {
    connect: () => Promise.resolve(free.pop() ?? sharingClient()),
    end: async () => {
      await shared?.end();
      await pool.end();
    },
  };
}

type SharingClient = RoutedClient;

/** A client's connection parameters, where node-postgres reads how long to wait for an answer (`query_timeout`). */
interface ClientWait {
  connectionParameters?: { query_timeout?: number | false };
}

/**
 * Runs `sendNow` with the client's wait for an answer (database.ts: the statement limit + 1 s) lifted for the
 * statements it sends. node-postgres reads the wait from the client's connection parameters when a statement is
 * handed to it (pg 8's Client.query, before it is queued or written); `send` hands its statements over before it
 * returns, so each statement sent here waits as long as it takes and every other one keeps the limit.
 */
function withoutWait<T>(client: pg.PoolClient, sendNow: () => T): T {
  const params = (client as ClientWait).connectionParameters;
  if (!params?.query_timeout) return sendNow();
  const wait = params.query_timeout;
  params.query_timeout = false;
  try {
    return sendNow();
  } finally {
    params.query_timeout = wait;
  }
}
