// Kysely's PostgreSQL dialect with a driver that hands each statement's way (statement-ways.ts) to the pool's client
// with its text, so that the pool (pool-clients.ts) sends it where its author said, not where its text suggests.
import {
  CompiledQuery,
  PostgresDialect,
  type DialectAdapter,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Kysely,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import type pg from "pg";
import { endsKeptReads, type ChangeCount } from "./coherent-reads.ts";
import { SteadyIntrospector } from "./introspector.ts";
import { beginLocked, MigrationLockAdapter, wantsMigrationLock } from "./migration-lock.ts";
import { wayOf, type Way } from "./statement-ways.ts";

/**
 * A pool client that takes a statement's way beside its text (pool-clients.ts; pg's own clients ignore it), and
 * whether its answer is waited for however long it takes (a migrator's statements, unlike a request's).
 */
export interface RoutedClient {
  query(text: string, values: unknown[], way: Way, untimed?: boolean): Promise<unknown>;
  release(err?: Error | boolean): void;
}
export interface RoutedPool {
  connect(): Promise<RoutedClient>;
  end(): Promise<void>;
}

class RoutedConnection implements DatabaseConnection {
  /**
   * In a migrator's transaction (from its begin to its end): the client waits for each answer as long as it takes.
   * The server's limit is lifted in that transaction too (migration-lock.ts): a migration may build a large index.
   */
  untimed = false;

  constructor(
    readonly client: RoutedClient,
    private readonly changes?: ChangeCount,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const way = wayOf(query);
    let result;
    try {
      result = (await this.client.query(query.sql, [...query.parameters], way, this.untimed)) as pg.QueryResult;
    } finally {
      // Anything but an explicit read may have changed data, failed or not (coherent-reads.ts), unless it was said to
      // change only what no kept read reads; counted before its caller goes on.
      if (way !== "read" && endsKeptReads(query)) this.changes?.changed();
    }
    const { command, rowCount, rows } = result;
    const changed = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE";
    return { numAffectedRows: changed ? BigInt(rowCount ?? 0) : undefined, rows: (rows ?? []) as R[] };
  }

  // eslint-disable-next-line require-yield -- Kysely's interface; nothing here streams (no cursor is configured).
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming needs a cursor; this service's dialect has none");
  }
}

class RoutedDriver implements Driver {
  private readonly connections = new WeakMap<RoutedClient, RoutedConnection>();
  constructor(
    private readonly pool: RoutedPool,
    private readonly changes?: ChangeCount,
    private readonly notice?: (message: string) => void,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    let connection = this.connections.get(client);
    if (!connection) this.connections.set(client, (connection = new RoutedConnection(client, this.changes)));
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const mode = [
      settings.isolationLevel && `isolation level ${settings.isolationLevel}`,
      settings.accessMode ?? "",
    ].filter(Boolean);
    const begin = CompiledQuery.raw(mode.length ? `start transaction ${mode.join(" ")}` : "begin");
    // A migrator's transaction takes the migration lock first (migration-lock.ts), and runs without time limits.
    if (wantsMigrationLock(connection)) {
      (connection as RoutedConnection).untimed = true;
      await beginLocked(connection, begin, this.notice);
    } else await connection.executeQuery(begin);
  }

  // A transaction's end is a change (coherent-reads.ts), whatever way its statements were said to go.
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw("commit"));
    } finally {
      (connection as RoutedConnection).untimed = false;
      this.changes?.changed();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw("rollback"));
    } finally {
      (connection as RoutedConnection).untimed = false;
      this.changes?.changed();
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction whose begin failed ends here, without a commit or rollback.
    (connection as RoutedConnection).untimed = false;
    (connection as RoutedConnection).client.release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * PostgreSQL's dialect (its compiler and introspector; its adapter with the migration lock in the migrator's transaction,
 * migration-lock.ts) over a pool whose clients take each statement's way.
 * With `changes` (the embedded database), every completed statement that may have changed data and every transaction's
 * end moves the count (coherent-reads.ts). `notice` hears who holds the migration lock while a migrator waits for it.
 */
export class RoutedDialect extends PostgresDialect {
  constructor(
    private readonly routedPool: RoutedPool,
    private readonly changes?: ChangeCount,
    private readonly notice?: (message: string) => void,
  ) {
    super({ pool: routedPool as unknown as pg.Pool });
  }
  override createDriver(): Driver {
    return new RoutedDriver(this.routedPool, this.changes, this.notice);
  }
  override createAdapter(): DialectAdapter {
    return new MigrationLockAdapter();
  }
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SteadyIntrospector(db);
  }
}
