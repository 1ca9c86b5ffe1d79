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

/** A migration may build an index on a large table: the request-sized statement timeout does not apply to it. */
function unlimited(m: Migration): Migration {
  return {
    ...m,
    up: async (db) => {
      await sql`set local statement_timeout = 0`.execute(db);
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

async function apply(db: Db, seq: Sequence, done: Set<string> | undefined): Promise<string[]> {
  // The usual start finds every migration applied: one query says so. Kysely's migrator would first
  // introspect the whole catalogue (~400 ms on PGlite); it runs, with its lock, only when there is work.
  if (pendingOf(seq, done).length === 0) return [];
  const provider: MigrationProvider = {
    getMigrations: async () => Object.fromEntries(Object.entries(seq.migrations).map(([n, m]) => [n, unlimited(m)])),
  };
  const { migrations, ...tables } = seq;
  const { error, results } = await new Migrator({ db, provider, ...tables }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error("migration failed", { cause: error });
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
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
  const applied = await apply(db, EXPAND, before);
  const contracts = await recorded(db, CONTRACT);
  if (fresh || opts.contract) return { applied, contracted: await apply(db, CONTRACT, contracts), pendingContract: [] };
  return { applied, contracted: [], pendingContract: pendingOf(CONTRACT, contracts) };
}

/** The one line a start or `migrate` prints while contract migrations wait. */
export const pendingContractNotice = (pending: string[]) =>
  `contract migrations pending (${pending.join(", ")}): once every instance runs this release, apply them with \`${CONTRACT_COMMAND}\``;
