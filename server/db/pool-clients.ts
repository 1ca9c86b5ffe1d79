// The one place the pool's clients are wrapped for Kysely: each statement a client sends goes through a policy of
// how to send it (named, on a direct connection: named-statements.ts; with its transaction's time limits, through a
// transaction-mode pooler: pooler.ts) and, while a request or delivery is traced, in a span of its own.
import type pg from "pg";
import { traced } from "../tracing/tracer.ts";
import { sessionRounds } from "./session-rounds.ts";
import type { SharedConnections } from "./shared-connections.ts";
import { writeBatches } from "./write-batches.ts";

type Query = (...args: unknown[]) => Promise<unknown>;
/** Sends one statement with the client's own `query` (`client` for what a policy needs of the connection). */
export type Send = (query: Query, text: unknown, values?: unknown[], client?: pg.PoolClient) => Promise<unknown>;

/** As the client would send it itself. */
export const sendPlain: Send = (query, text, values) => (values === undefined ? query(text) : query(text, values));

// How a statement sent outside a transaction goes, judged once per text. A read shares a pipelined connection. A write
// (one data-modifying statement) goes in a batch (write-batches.ts), not on a shared connection: it commits by itself and
// waits for its WAL flush, and every statement sent behind it there would wait for that flush too (a slow disk stalled
// GET shipment's p99 to 848 ms in a benchmark round that shared them). Anything else takes a pool connection of its own.
type Way = "shared" | "batched" | "own";
const READ = /^\s*select\b/i;
const WITH = /^\s*with\b/i;
const WRITE = /^\s*(insert|update|delete|merge)\b/i;
const WRITES = /\b(insert|update|delete|merge)\b/i;
// What leaves state on its session for a later statement: Kysely's migrator takes a session's advisory lock and
// releases it statements later on the same connection (db.connection()); set_config can set the session's settings.
const SESSION_STATE = /\b(pg_(try_)?advisory_(un)?lock(_shared)?|pg_advisory_unlock_all|set_config)\b/i;
const judged = new Map<string, Way>();
function wayOf(text: string): Way {
  let way = judged.get(text);
  if (way === undefined) {
    const writes = WRITES.test(text);
    way = SESSION_STATE.test(text)
      ? "own"
      : READ.test(text) || (WITH.test(text) && !writes)
        ? "shared"
        : WRITE.test(text) || (WITH.test(text) && writes)
          ? "batched"
          : "own";
    // Bounded as the statements' names are (named-statements.ts): past it, texts are judged each time.
    if (judged.size < 1000) judged.set(text, way);
  }
  return way;
}

/**
 * How statements outside a transaction go: on PostgreSQL, reads on shared connections (shared-connections.ts) and
 * writes in batches (write-batches.ts); on the embedded database's one session, both in rounds (session-rounds.ts).
 * Neither through a transaction-mode pooler: each statement takes a pool connection.
 */
export type Outside = { shared: SharedConnections } | { session: true };

/**
 * What Kysely's PostgresDialect needs of a pool, with clients that send each statement by `send`. With `outside`, a
 * statement outside a transaction goes its way when it can: the client Kysely gets holds a pool connection only from
 * its first statement that cannot (a `begin`, a statement that leaves state on its session, or a read when every
 * shared connection is busy) until it is released.
 */
export function sendingPool(pool: pg.Pool, send: Send, outside?: Outside) {
  /** Each pool client's own query, before it was wrapped. */
  const own = new WeakMap<pg.PoolClient, Query>();
  const wrap = (client: pg.PoolClient) => {
    if (own.has(client)) return client;
    const query = client.query.bind(client) as Query;
    own.set(client, query);
    (client as { query: unknown }).query = (text: unknown, values?: unknown[]) =>
      traced(text, () => send(query, text, values, client));
    return client;
  };
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
      query: (text, values) => {
        const way = !held && typeof text === "string" ? wayOf(text) : "own";
        if (way === "shared" && shared) {
          const sharedQuery = shared.take();
          if (sharedQuery) return traced(text, () => send(sharedQuery, text, values));
        } else if (way === "batched" || way === "shared")
          return traced(text, () => together.send(text as string, values));
        held ??= pool.connect().then(wrap);
        return held.then((c) => c.query(text as string, values));
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
    connect: () => Promise.resolve((free.pop() ?? sharingClient()) as unknown as pg.PoolClient),
    end: async () => {
      await shared?.end();
      await pool.end();
    },
  };
}

interface SharingClient {
  query(text: unknown, values?: unknown[]): Promise<unknown>;
  release(err?: Error | boolean): void;
}
