import path from "node:path";
import pg from "pg";
import { Kysely } from "kysely";
import { ChangeCount, countChangesOf } from "./coherent-reads.ts";
import { embeddedSession } from "./embedded-connection.ts";
import { startEmbedded, type Durability, type StartOptions } from "./embedded-open.ts";
import { RoutedDialect } from "./dialect.ts";
import { namingPool } from "./named-statements.ts";
import { sharedConnections, type SharedConnections } from "./shared-connections.ts";
import { pollInstead, roleTimeLimits, transactionModePool } from "./pooler.ts";
import type { Database } from "./schema.ts";
import { DEFAULT_TIMEOUTS } from "./timeouts.ts";

// DATE columns stay "YYYY-MM-DD" strings: a JS Date would shift them by the process time zone.
pg.types.setTypeParser(1082, (v) => v);

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: "postgres" | "pglite";
  /**
   * Calls `onNotify` after each commit that sent `NOTIFY channel` (pg_notify), and once after the
   * listener (re)connects, since notifications may have been missed meanwhile. Returns how to stop.
   * PostgreSQL: a dedicated connection outside the pool. PGlite: LISTEN on its one session (embedded-connection.ts).
   */
  listen(channel: string, onNotify: () => void, onError?: (err: Error) => void): Promise<() => Promise<void>>;
  /** Connections of the pool: open, idle, and requests waiting for one (for /metrics). */
  poolStats(): PoolStats;
  /**
   * Resolves once every commit answered so far is on the disk: PGlite with durable commits flushes them together
   * (embedded-flush.mjs); absent where a commit is answered only once it is (PostgreSQL) or never waits (relaxed).
   */
  durable?: () => Promise<void>;
  /** PGlite: a consistent copy of the database, as a gzipped tar (backup.ts). */
  backup?: () => Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const statsOf = (pool: pg.Pool, shared?: SharedConnections) => (): PoolStats => ({
  total: pool.totalCount + (shared?.open() ?? 0),
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});

/** Connections that reads outside a transaction share (shared-connections.ts): 2 measured better than 4. */
const SHARED_CONNECTIONS = 2;

export interface DatabaseOptions {
  databaseUrl?: string;
  pgliteDir: string;
  poolSize?: number;
  /** Opening a connection may take this long before the request fails (503); default 3 s. */
  connectTimeoutMs?: number;
  /** A statement may run this long (the server cancels it; the client gives up 1 s later); default 5 s; 0: no limit (CLI imports). */
  statementTimeoutMs?: number;
  /**
   * A connection failed outside any query (the server restarted, a failover, an idle kill). Without a
   * listener node-postgres' `error` event ends the process; the pool drops the connection and opens another.
   */
  onConnectionError?: (err: Error) => void;
  /** `transaction`: `databaseUrl` is a transaction-mode pooler (pooler.ts). Default `session`. */
  poolMode?: "session" | "transaction";
  /** A direct connection for LISTEN; default `databaseUrl` in session mode, polling in transaction mode. */
  listenUrl?: string;
  /**
   * What works differently from a direct connection, or what the embedded database's opening tightened, said
   * once at open (the server logs it); and who holds the migrations' lock while a migration waits for it.
   */
  onNotice?: (message: string) => void;
  /** The embedded database: commits answered once on the disk (default) or once the system has them (embedded-open.ts). */
  durability?: Durability;
}

/** Through a transaction-mode pooler without a LISTEN URL: how often the listeners are called instead. */
export const POLL_INSTEAD_OF_LISTEN_MS = 1_000;

export async function openDatabase(opts: DatabaseOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const statementTimeoutMs = opts.statementTimeoutMs ?? DEFAULT_TIMEOUTS.statementTimeoutMs;
    const pooled = opts.poolMode === "transaction";
    const limits =
      statementTimeoutMs > 0 ? { statementTimeoutMs, idleInTransactionMs: statementTimeoutMs * 2 } : undefined;
    const poolSize = opts.poolSize ?? 10;
    // Through a transaction-mode pooler every statement needs a server connection of its own (pooler.ts).
    const sharedCount = pooled || poolSize < 4 ? 0 : SHARED_CONNECTIONS;
    const connection: pg.ClientConfig = {
      connectionString: opts.databaseUrl,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? DEFAULT_TIMEOUTS.connectTimeoutMs,
      // The server cancels a slow statement; the client stops waiting for a server that does not answer at all.
      ...(limits && { query_timeout: statementTimeoutMs + 1_000 }),
      // Start-up parameters: a transaction-mode pooler refuses them (pooler.ts sets them per transaction instead).
      ...(limits &&
        !pooled && {
          statement_timeout: limits.statementTimeoutMs,
          idle_in_transaction_session_timeout: limits.idleInTransactionMs,
        }),
      keepAlive: true,
    };
    const connectTimeoutMs = connection.connectionTimeoutMillis!;
    const pool = new pg.Pool({
      ...connection,
      // Waiting for a free connection is not failing to reach the database: a burst of writers on one row holds every
      // connection in turn, and under load the last waits longer than a connection may take to open (25 concurrent
      // arrivals answered 503 on a busy 2-core machine). pg-pool bounds both waits by this one option, so the pool's
      // queue gets the connect time plus a statement's limit, and each new connection keeps its own bound below.
      connectionTimeoutMillis: connectTimeoutMs + (limits?.statementTimeoutMs ?? DEFAULT_TIMEOUTS.statementTimeoutMs),
      Client: class extends pg.Client {
        constructor(config?: pg.ClientConfig) {
          super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
        }
      },
      // The shared connections count in the pool's size: a process opens at most poolSize connections, as before.
      max: poolSize - sharedCount,
      // Statements go out without waiting for the answer to the one before: a transaction's begin rides with its
      // first statement (begin-rides.ts). Kysely still sends one statement at a time otherwise.
      pipeline: !pooled,
    });
    const shared = sharedCount ? sharedConnections(connection, sharedCount, opts.onConnectionError) : undefined;
    handleConnectionErrors(pool, opts.onConnectionError);
    const notice = opts.onNotice ?? (() => {});
    if (pooled && limits) {
      const said = await roleTimeLimits(pool, limits).catch(
        (err: Error) => `could not check the time limits of statements outside a transaction: ${err.message}`,
      );
      if (said) notice(said);
    } else await probe(pool);
    const db = new Kysely<Database>({
      dialect: new RoutedDialect(
        pooled ? transactionModePool(pool, limits) : namingPool(pool, shared && { shared }),
        undefined,
        notice,
      ),
    });
    const listenUrl = opts.listenUrl ?? (pooled ? undefined : opts.databaseUrl);
    if (!listenUrl)
      notice(
        `DATABASE_POOL_MODE=transaction without DATABASE_LISTEN_URL: instances look for changed prices, pickup points and waiting webhooks every ${POLL_INSTEAD_OF_LISTEN_MS / 1000} s instead of hearing of them at once; set DATABASE_LISTEN_URL to a direct connection to hear them`,
      );
    return {
      db,
      kind: "postgres",
      listen: (channel, onNotify, onError) =>
        listenUrl
          ? listenPostgres(listenUrl, channel, onNotify, onError)
          : Promise.resolve(pollInstead(onNotify, POLL_INSTEAD_OF_LISTEN_MS)),
      poolStats: statsOf(pool, shared),
      close: () => db.destroy(),
    };
  }
  return openEmbedded(opts.pgliteDir, {
    onConnectionError: opts.onConnectionError,
    onNotice: opts.onNotice,
    durability: opts.durability,
  });
}

export interface EmbeddedOptions extends StartOptions {
  onConnectionError?: (err: Error) => void;
  /** What the opening changed that an operator should know (files others could read, made the user's alone). */
  onNotice?: (message: string) => void;
}

/** How long after an opening that trusted its record the directory is walked (owner-only.ts): after ready. */
const WALK_LATER_MS = 1_000;

/** The embedded database in `pgliteDir`, locked to this process until closed. */
export async function openEmbedded(pgliteDir: string, opts: EmbeddedOptions = {}): Promise<DatabaseHandle> {
  // Not kysely-pglite: its driver lets one request's statements run inside another's open transaction. Here
  // node-postgres speaks to the one PGlite session as to a server (a pool of one: a transaction at a time), and
  // the session runs on a thread of its own (embedded-open.ts).
  const { thread, close, tightened, walkLater } = await startEmbedded(pgliteDir, opts);
  const tightenedNotice = (count: number) =>
    count > 0 &&
    opts.onNotice?.(
      `${count} files and directories of the embedded database ${path.resolve(pgliteDir)} were readable or writable by other users; they are now this user's alone (directories 0700, files 0600)`,
    );
  tightenedNotice(tightened);
  // The walk the opening left for later (embedded-open.ts): once the server is serving, beside PostgreSQL's work.
  let laterWalk =
    walkLater &&
    setTimeout(() => {
      laterWalk = undefined;
      walkLater().then(tightenedNotice, () => {
        // Another close walks it again, and the next opening before it serves (no record then).
      });
    }, WALK_LATER_MS);
  laterWalk?.unref?.();
  const { pool, listen } = embeddedSession(thread.exchange);
  handleConnectionErrors(pool, opts.onConnectionError);
  // Every change of this database passes through this dialect: reads may be kept while none completes (coherent-reads.ts).
  const changes = new ChangeCount();
  const db = new Kysely<Database>({ dialect: new RoutedDialect(namingPool(pool, { session: true }), changes) });
  countChangesOf(db, changes);
  return {
    db,
    kind: "pglite",
    poolStats: statsOf(pool),
    listen: (channel, onNotify) => listen(checkChannel(channel), onNotify),
    ...((opts.durability ?? "durable") === "durable" && { durable: () => thread.durable() }),
    backup: async () => {
      // Holding the one connection: no transaction is open while the files are read. The checkpoint writes
      // every committed change to the data files, so a restore starts without replaying the log.
      const client = await pool.connect();
      try {
        await client.query("checkpoint");
        return await thread.dump();
      } finally {
        client.release();
      }
    },
    close: async () => {
      clearTimeout(laterWalk);
      await db.destroy();
      await close();
    },
  };
}

/**
 * One connection at open, so that a pooler that refuses the server's start-up parameters is named as such. A
 * database that is not there yet is not an error here: requests answer 503 until it is (migrations wait for it).
 */
async function probe(pool: pg.Pool): Promise<void> {
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    const explained = explainPostgresStartFailure(err as Error);
    if (explained !== err) {
      await pool.end().catch(() => {});
      throw explained;
    }
  }
}

/** PgBouncer in transaction mode refuses statement_timeout as a start-up parameter: say what to set. */
function explainPostgresStartFailure(err: Error): Error {
  if (/unsupported startup parameter/i.test(err.message))
    return new Error(
      `${err.message}: DATABASE_URL looks like a connection pooler in transaction mode (PgBouncer); set DATABASE_POOL_MODE=transaction (and DATABASE_LISTEN_URL to a direct connection, if there is one)`,
      { cause: err },
    );
  return err;
}

const RECONNECT_MS = 1_000;

/**
 * The pool reports an idle connection's failure on itself; a checked-out connection that fails between
 * two queries (inside a transaction, say) reports it on the client, where node-postgres' pool keeps no
 * listener. Both would end the process; here they are reported and the connection is dropped.
 */
function handleConnectionErrors(pool: pg.Pool, report: (err: Error) => void = () => {}) {
  pool.on("error", (err) => report(err));
  pool.on("connect", (client) => client.on("error", (err) => report(err)));
}

function checkChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return channel;
}

/** LISTEN on a connection of its own, reconnecting after a failure until stopped. */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
  onError?: (err: Error) => void,
): Promise<() => Promise<void>> {
  checkChannel(channel);
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: DEFAULT_TIMEOUTS.connectTimeoutMs,
      keepAlive: true,
    });
    c.on("notification", (n) => n.channel === channel && onNotify());
    c.on("error", (err) => {
      onError?.(err);
      retry(c);
    });
    c.on("end", () => retry(c));
    client = c;
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    onNotify();
  };
  const retry = (c: pg.Client) => {
    if (stopped || client !== c || timer) return;
    client = undefined;
    c.end().catch(() => {});
    timer = setTimeout(() => {
      timer = undefined;
      // start() catches its own failure and schedules the next attempt: nothing waits for it here.
      if (!stopped) void start();
    }, RECONNECT_MS);
  };
  const start = () =>
    connect().catch((err) => {
      onError?.(err as Error);
      if (client) retry(client);
    });
  await start();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const c = client;
    client = undefined;
    await c?.end().catch(() => {});
  };
}
