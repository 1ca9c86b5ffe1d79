// Kysely's PostgreSQL dialect with a driver that hands each statement's way (statement-ways.ts) to the pool's client
// with its text, so that the pool (pool-clients.ts) sends it where its author said, not where its text suggests.
import {
  CompiledQuery,
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import type pg from "pg";
import { wayOf, type Way } from "./statement-ways.ts";

/** A pool client that takes a statement's way beside its text (pool-clients.ts); pg's own clients ignore it. */
export interface RoutedClient {
  query(text: string, values: unknown[], way: Way): Promise<unknown>;
  release(err?: Error | boolean): void;
}
export interface RoutedPool {
  connect(): Promise<RoutedClient>;
  end(): Promise<void>;
}

class RoutedConnection implements DatabaseConnection {
  constructor(readonly client: RoutedClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { command, rowCount, rows } = (await this.client.query(
      query.sql,
      [...query.parameters],
      wayOf(query),
    )) as pg.QueryResult;
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
  constructor(private readonly pool: RoutedPool) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    let connection = this.connections.get(client);
    if (!connection) this.connections.set(client, (connection = new RoutedConnection(client)));
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const mode = [
      settings.isolationLevel && `isolation level ${settings.isolationLevel}`,
      settings.accessMode ?? "",
    ].filter(Boolean);
    await connection.executeQuery(CompiledQuery.raw(mode.length ? `start transaction ${mode.join(" ")}` : "begin"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).client.release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

/** PostgreSQL's dialect (its compiler, adapter and introspector) over a pool whose clients take each statement's way. */
export class RoutedDialect extends PostgresDialect {
  constructor(private readonly routedPool: RoutedPool) {
    super({ pool: routedPool as unknown as pg.Pool });
  }
  override createDriver(): Driver {
    return new RoutedDriver(this.routedPool);
  }
}
