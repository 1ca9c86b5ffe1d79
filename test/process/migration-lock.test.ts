// The migrations' lock (server/db/migration-lock.ts) is held by the migrator's transaction, so it ends with it on
// every connection, through a transaction-mode pooler too (npm run test:pgbouncer): Kysely's own session lock stayed
// on whichever pooled server connection took it, and the next migration waited for it until its statement timeout.
import { Migrator, sql } from "kysely";
import pg from "pg";
import { afterEach, expect, inject, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { MIGRATION_LOCK_KEY } from "../../server/db/migration-lock.ts";
import { CONTRACT_MIGRATIONS, MIGRATIONS } from "../../server/db/migrations/index.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { createTestDatabase } from "../helpers/database.ts";

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;
const toClose: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const h of toClose.splice(0).reverse()) await h.close();
});

async function emptyDatabase(): Promise<TestDatabase> {
  const handle = await createTestDatabase({ empty: true });
  toClose.push(handle);
  return handle;
}

/** A second instance's connections to the same database (on PostgreSQL; PGlite belongs to one process: itself). */
async function anotherInstance(handle: TestDatabase, onNotice?: (message: string) => void): Promise<DatabaseHandle> {
  if (handle.kind !== "postgres") return handle;
  const bouncerPort = inject("pgbouncerPort");
  const pooled = new URL(handle.url!);
  if (bouncerPort) pooled.port = String(bouncerPort);
  const other = await openDatabase({
    databaseUrl: pooled.toString(),
    pgliteDir: "",
    ...(bouncerPort && { poolMode: "transaction", listenUrl: handle.url! }),
    onNotice,
  });
  toClose.push(other);
  return other;
}

/** The backends holding the migration lock in this database now. */
async function holders(handle: TestDatabase): Promise<{ pid: number; state: string }[]> {
  const { rows } = await sql<{ pid: number; state: string }>`
    select l.pid, a.state from pg_locks l left join pg_stat_activity a on a.pid = l.pid
     where l.locktype = 'advisory' and l.granted and l.objsubid = 1
       and l.classid = ${Number(MIGRATION_LOCK_KEY >> 32n)} and l.objid = ${Number(MIGRATION_LOCK_KEY & 0xffffffffn)}
       and l.database = (select oid from pg_database where datname = current_database())`.execute(handle.db);
  return rows;
}

/** What the release before 0020 leaves. */
async function asTheReleaseBefore(handle: TestDatabase): Promise<void> {
  const provider = { getMigrations: async () => MIGRATIONS };
  const { error } = await new Migrator({ db: handle.db, provider }).migrateTo("0019_delivery_dates");
  if (error) throw new Error("migrating to the release before failed", { cause: error });
}

/** Other clients' statements, as a running release sends them, until stopped: a pooler spreads them over its connections. */
function busy(handle: TestDatabase, clients = 6): () => Promise<void> {
  let stop = false;
  const loops = Array.from({ length: clients }, async () => {
    while (!stop) await sql`select pg_sleep(0.005)`.execute(handle.db);
  });
  return async () => {
    stop = true;
    await Promise.all(loops);
  };
}

const EXPAND = Object.keys(MIGRATIONS).sort();
const CONTRACT = Object.keys(CONTRACT_MIGRATIONS).sort();

it("a migration beside a running release's statements leaves no connection holding the lock, and the contract step after it goes through", async () => {
  const handle = await emptyDatabase();
  await asTheReleaseBefore(handle);
  const stop = busy(handle);
  try {
    const expand = await migrateToLatest(handle.db);
    expect(expand.applied).toEqual(EXPAND.filter((m) => m > "0019_delivery_dates"));
    expect(await holders(handle)).toEqual([]);
    const contract = await migrateToLatest(handle.db, { contract: true });
    expect(contract.contracted).toEqual(CONTRACT);
    expect(await holders(handle)).toEqual([]);
  } finally {
    await stop();
  }
});

it("a failed migration leaves no connection holding the lock either", async () => {
  const handle = await emptyDatabase();
  await asTheReleaseBefore(handle);
  await migrateToLatest(handle.db);
  // 0020's contract step refuses while a secret is stored plain only.
  await provisionAccount(handle.db, "merchant", "lock.example.com", "secret-lock");
  await sql`insert into webhook_endpoints (id, merchant_id, url, event_types, secret)
    values ('0123456789abcdef01234567', 'lock.example.com', 'https://lock.example.com/hook', ${["webhook.test"]}, 'plain')`.execute(
    handle.db,
  );
  const stop = busy(handle);
  try {
    for (let i = 0; i < 3; i++)
      await expect(migrateToLatest(handle.db, { contract: true })).rejects.toThrow(
        "1 stored secrets are not encrypted yet",
      );
    expect(await holders(handle)).toEqual([]);
  } finally {
    await stop();
  }
});

it("two instances that start at once on an empty database: each migration is applied once, the one that waited finds nothing left to do", async () => {
  const handle = await emptyDatabase();
  const other = await anotherInstance(handle);
  const [a, b] = await Promise.all([migrateToLatest(handle.db), migrateToLatest(other.db)]);
  // The expand migrations of a new database go in one transaction: one instance applies them all.
  expect([a.applied, b.applied].sort((x, y) => x.length - y.length)).toEqual([[], EXPAND]);
  expect([...a.contracted, ...b.contracted].sort()).toEqual(CONTRACT);
  const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
  expect(recorded.rows.map((r) => r.name)).toEqual(EXPAND);
  expect(await holders(handle)).toEqual([]);
});

it.runIf(process.env.TEST_DB === "postgres")(
  "a migrator waits while another's migration holds the lock, over several tries, says who holds it, then migrates",
  async () => {
    const handle = await emptyDatabase();
    await asTheReleaseBefore(handle);
    const notices: string[] = [];
    const instance = await anotherInstance(handle, (m) => notices.push(m));
    // Another instance in the middle of a migration: its transaction holds the lock.
    const holder = new pg.Client({ connectionString: handle.url });
    await holder.connect();
    try {
      await holder.query(`begin; select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const pid = (await holder.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
      let settled = false;
      const migrating = migrateToLatest(instance.db).finally(() => (settled = true));
      // Each try waits 1 s (migration-lock.ts): two and a half of them.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(settled).toBe(false);
      // Its try is seen waiting (between two tries, for a moment, nothing waits).
      const waiter = async () => {
        for (let i = 0; i < 20; i++) {
          const { rows } = await holder.query<{ n: string }>(
            `select count(*) as n from pg_locks where locktype = 'advisory' and not granted and objid = $1`,
            [Number(MIGRATION_LOCK_KEY & 0xffffffffn)],
          );
          if (rows[0]!.n === "1") return true;
          await new Promise((r) => setTimeout(r, 50));
        }
        return false;
      };
      expect(await waiter()).toBe(true);
      const recorded = await holder.query(`select name from kysely_migration where name > '0019_delivery_dates'`);
      expect(recorded.rows).toEqual([]);
      // Said once, at the first try that timed out (then every minute).
      expect(notices.filter((m) => m.includes("migration lock"))).toEqual([
        expect.stringMatching(
          new RegExp(`^waiting \\d+ s for the migration lock: held by backend ${pid} \\(idle in transaction`),
        ),
      ]);
      await holder.query("commit");
      expect((await migrating).applied).toEqual(EXPAND.filter((m) => m > "0019_delivery_dates"));
    } finally {
      await holder.end();
    }
  },
);
