import { setTimeout as sleep } from "node:timers/promises";
import { Migrator, sql, type Migration, type MigrationProvider } from "kysely";
import type { Db } from "./database.ts";
import { CONTRACT_MIGRATIONS, MIGRATIONS } from "./migrations/index.ts";

/** One sequence of migrations and the Kysely tables that record it and lock it. */
interface Sequence {
  migrations: Record<string, Migration>;
  migrationTableName: string;
  migrationLockTableName: string;
}

const EXPAND: Sequence = {
  migrations: MIGRATIONS,
  migrationTableName: "kysely_migration",
  migrationLockTableName: "kysely_migration_lock",
};
const CONTRACT: Sequence = {
  migrations: CONTRACT_MIGRATIONS,
  migrationTableName: "kysely_contract_migration",
  migrationLockTableName: "kysely_contract_migration_lock",
};

export const CONTRACT_COMMAND = "npm run cli -- migrate --contract";

/**
 * A migration may build an index on a large table: the request-sized statement timeout does not apply to it.
 * It waits for a table's lock at most LOCK_WAIT_MS, though: while it waits, every request of the running
 * release that touches the table queues behind it, and a wait shorter than PostgreSQL's deadlock_timeout (1 s)
 * makes the migration, never a request, the one that gives way when their locks cross. It is then tried again.
 */
const LOCK_WAIT_MS = 500;
const LOCK_RETRIES = 40;
/** lock_not_available (lock_timeout) and deadlock_detected. */
const LOCK_CONFLICT = new Set(["55P03", "40P01"]);

function unlimited(m: Migration): Migration {
  return {
    ...m,
    up: async (db) => {
      await sql`set local statement_timeout = 0`.execute(db);
      await sql.raw(`set local lock_timeout = ${LOCK_WAIT_MS}`).execute(db);
      await m.up(db);
    },
  };
}

/** The migrations recorded as applied, or undefined on a database that has never run this sequence. */
async function recorded(db: Db, seq: Sequence): Promise<Set<string> | undefined> {
  // Asked first rather than caught: a failed statement breaks PGlite's session for the statements after it.
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass(${seq.migrationTableName}) is not null as present`.execute(db);
  if (!rows[0]!.present) return undefined;
  const names = await sql<{ name: string }>`select name from ${sql.table(seq.migrationTableName)}`.execute(db);
  return new Set(names.rows.map((r) => r.name));
}

const pendingOf = (seq: Sequence, done: Set<string> | undefined) =>
  Object.keys(seq.migrations).filter((name) => !done?.has(name));

async function apply(db: Db, seq: Sequence, done: Set<string> | undefined, fresh: boolean): Promise<string[]> {
  // The usual start finds every migration applied: one query says so. Kysely's migrator would first
  // introspect the whole catalogue (~400 ms on PGlite); it runs, with its lock, only when there is work.
  if (pendingOf(seq, done).length === 0) return [];
  const provider: MigrationProvider = {
    getMigrations: async () => Object.fromEntries(Object.entries(seq.migrations).map(([n, m]) => [n, unlimited(m)])),
  };
  const { migrations, ...tables } = seq;
  const migrator = new Migrator({ db, provider, ...tables });
  if (fresh) {
    // Nothing else can be using an empty database: all in one transaction, without a step's introspection each.
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error("migration failed", { cause: error });
    return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  }
  // One transaction per migration, not one for all: a transaction that holds the lock of one table while it
  // waits for another's is how a migration deadlocks with the running release's requests (0012's events,
  // then 0015's shipments, met a request holding them the other way round).
  const applied: string[] = [];
  for (let conflicts = 0; ;) {
    const { error, results } = await migrator.migrateUp();
    if (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === "string" && LOCK_CONFLICT.has(code) && ++conflicts <= LOCK_RETRIES) {
        await sleep(100 + Math.random() * 400);
        continue;
      }
      throw error instanceof Error ? error : new Error("migration failed", { cause: error });
    }
    const done = (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
    if (done.length === 0) return applied;
    applied.push(...done);
  }
}

export interface MigrationOutcome {
  /** Expand migrations this call applied. */
  applied: string[];
  /** Contract migrations this call applied. */
  contracted: string[];
  /** Contract migrations left for `migrate --contract`. */
  pendingContract: string[];
}

/**
 * Applies every expand migration, then the contract migrations when asked (`migrate --contract`, once every
 * instance runs this release) or when the database was empty before this call: on a fresh install no
 * instance of an older release can be running against it.
 */
export async function migrateToLatest(db: Db, opts: { contract?: boolean } = {}): Promise<MigrationOutcome> {
  const before = await recorded(db, EXPAND);
  const fresh = before === undefined || before.size === 0;
  const applied = await apply(db, EXPAND, before, fresh);
  const contracts = await recorded(db, CONTRACT);
  if (fresh || opts.contract)
    return { applied, contracted: await apply(db, CONTRACT, contracts, fresh), pendingContract: [] };
  return { applied, contracted: [], pendingContract: pendingOf(CONTRACT, contracts) };
}

/** The one line a start or `migrate` prints while contract migrations wait. */
export const pendingContractNotice = (pending: string[]) =>
  `contract migrations pending (${pending.join(", ")}): once every instance runs this release, apply them with \`${CONTRACT_COMMAND}\``;
