// The migrations' lock, held by the transaction the migrations run in (pg_advisory_xact_lock), never by a session.
//
// Kysely's PostgresAdapter takes a session-level pg_advisory_lock before the migrator's transaction and releases it
// with pg_advisory_unlock after. Through a transaction-mode pooler (PgBouncer, DATABASE_POOL_MODE=transaction) each
// of those three runs on whichever server connection the pooler hands out: the lock stays on the connection that
// took it, the unlock on another finds nothing to release, and the stranded lock, now on a connection the pooler
// gives to other clients' statements, blocks every later migration until the pooler closes that connection
// (seen: `migrate --contract` waited out the 5 s statement timeout behind the lock held by a server connection
// that was meanwhile serving the running server's dispatcher; bench/levers.md section 44).
//
// Kysely's migrator calls acquireMigrationLock(db) on the one connection it then begins its transaction on (its
// `db.connection().execute(db => lock; db.transaction()...; unlock)`). So here the acquire only marks that
// connection, and the dialect's driver (dialect.ts) takes the lock as the first statement of the transaction it
// begins there: held exactly as long as the transaction, on the server connection the transaction holds through
// any pooler, released by its commit or rollback (a failed migration's too). The key is Kysely's, so a migrator of
// an older release (session lock) and this one still exclude each other. A migrator told `disableTransactions`
// begins no transaction and so takes no lock here: migrate.ts never tells it so.
import { CompiledQuery, PostgresAdapter, type DatabaseConnection, type Kysely } from "kysely";

/** Kysely's key (kysely/dist/esm/dialect/postgres/postgres-adapter.js), as PostgreSQL shows it in pg_locks. */
export const MIGRATION_LOCK_KEY = 3853314791062309107n;
const LOCK_CLASSID = Number(MIGRATION_LOCK_KEY >> 32n);
const LOCK_OBJID = Number(MIGRATION_LOCK_KEY & 0xffffffffn);

/**
 * How long one try waits for the lock (lock_timeout): a wait is a series of tries, each in a transaction of its own,
 * so that the holder is said meanwhile.
 */
const TRY_MS = 1_000;
/** How long a migrator waits for another in all (Kysely's own lock_timeout): a migration may build a large index. */
export const MIGRATION_LOCK_WAIT_MS = 60 * 60 * 1_000;

const wanted = new WeakSet<DatabaseConnection>();

/** The dialect's adapter: PostgreSQL's, with the migration lock taken in the migrator's transaction. */
export class MigrationLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await db.getExecutor().provideConnection(async (connection) => {
      wanted.add(connection);
    });
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    // Released by the transaction's end; a connection whose transaction never began forgets the mark.
    await db.getExecutor().provideConnection(async (connection) => {
      wanted.delete(connection);
    });
  }
}

/** Whether the transaction begun next on `connection` is a migrator's, to take the lock first (dialect.ts). */
export function wantsMigrationLock(connection: DatabaseConnection): boolean {
  return wanted.has(connection);
}

/**
 * A migrator's transaction runs without the statement limit from its first statement (the client waits as long too:
 * dialect.ts): a migration may build an index on a large table, and a try's wait for the lock is bounded by TRY_MS
 * alone, however small the operator's limit (DB_STATEMENT_TIMEOUT_MS may be 100 ms). A statement's own limit is read
 * when it starts: this goes before the try's statement, not in it.
 */
const UNLIMITED = CompiledQuery.raw("set local statement_timeout = 0");
// One statement: the try's lock_timeout is read when the lock wait starts, after set_config ran (Kysely's way).
const TAKE = CompiledQuery.raw(
  `with limits as (select set_config('lock_timeout', '${TRY_MS}', true) as lock_timeout)
   select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}) from limits`,
);
const ROLLBACK = CompiledQuery.raw("rollback");
/** Who holds the lock in this database now. */
const HOLDER = CompiledQuery.raw(
  `select a.pid, a.state, a.application_name, a.client_addr::text as client_addr,
          extract(epoch from now() - a.state_change)::int as state_seconds, left(a.query, 200) as query
     from pg_locks l left join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.granted and l.classid = ${LOCK_CLASSID} and l.objid = ${LOCK_OBJID}
      and l.objsubid = 1 and l.database = (select oid from pg_database where datname = current_database())`,
);

interface Holder {
  pid: number;
  state: string | null;
  application_name: string | null;
  client_addr: string | null;
  state_seconds: number | null;
  query: string | null;
}

/** While a migrator waits, the holder is said at the first try that times out and then every minute. */
const NOTICE_EVERY_MS = 60_000;

/**
 * Begins a migrator's transaction on `connection` with `begin` and takes the migration lock in it, waiting for
 * another migrator's transaction to end. Each try that times out is rolled back (nothing held while the next waits);
 * `notice` hears who holds it meanwhile; after MIGRATION_LOCK_WAIT_MS the error names the holder.
 */
export async function beginLocked(
  connection: DatabaseConnection,
  begin: CompiledQuery,
  notice?: (message: string) => void,
): Promise<void> {
  wanted.delete(connection);
  const since = Date.now();
  let told = -Infinity;
  for (;;) {
    await connection.executeQuery(begin);
    try {
      await connection.executeQuery(UNLIMITED);
      await connection.executeQuery(TAKE);
      return;
    } catch (err) {
      await connection.executeQuery(ROLLBACK);
      if ((err as { code?: unknown }).code !== "55P03") throw err;
    }
    const now = Date.now();
    const over = now - since >= MIGRATION_LOCK_WAIT_MS;
    if (!over && (!notice || now - told < NOTICE_EVERY_MS)) continue;
    const { rows } = await connection.executeQuery<Holder>(HOLDER);
    const held = rows.length ? rows.map(describe).join("; ") : "no holder seen now";
    if (over)
      throw new Error(`the migration lock was not free for ${MIGRATION_LOCK_WAIT_MS / 1000} s: ${held}. ${WHY}`);
    told = now;
    notice?.(`waiting ${Math.round((now - since) / 1000)} s for the migration lock: ${held}. ${WHY}`);
  }
}

const WHY =
  "Another instance may be migrating; a session that holds it while it migrates nothing (an older release's migrator " +
  "behind a transaction-mode pooler left it on a pooled connection) keeps it until that connection closes: " +
  "pg_terminate_backend(pid) ends it.";

const describe = (h: Holder) =>
  `held by backend ${h.pid} (${h.state ?? "state unknown"}${h.state_seconds !== null ? ` for ${h.state_seconds} s` : ""}` +
  `${h.application_name ? `, application ${h.application_name}` : ""}${h.client_addr ? `, from ${h.client_addr}` : ""}` +
  `${h.query ? `, last statement: ${h.query.replace(/\s+/g, " ").trim()}` : ""})`;
