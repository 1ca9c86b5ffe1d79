// A migration's statement runs as long as it takes (an index built on a large table at start or in `npm run cli --
// migrate`), while a request's statement is still cut at the statement limit: the server cancels it at the limit, the
// client stops waiting 1 s later (database.ts). The migrator's transaction lifted the server's limit but not the
// client's, so a migration statement longer than the limit + 1 s failed ("Connection terminated unexpectedly") and the
// migration with it. Here the limit is 300 ms: the client's wait is 1.3 s.
import { Migrator, sql, type Migration } from "kysely";
import pg from "pg";
import { afterEach, expect, inject, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { MIGRATION_LOCK_KEY } from "../../server/db/migration-lock.ts";
import { MIGRATIONS } from "../../server/db/migrations/index.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { createTestDatabase } from "../helpers/database.ts";

const LIMIT_MS = 300;
/** Longer than the limit and the client's wait (LIMIT_MS + 1 s). */
const SLOW_S = 2;

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;
const toClose: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const h of toClose.splice(0).reverse()) await h.close();
});

async function testDatabase(empty: boolean): Promise<TestDatabase> {
  const handle = await createTestDatabase({ empty });
  toClose.push(handle);
  return handle;
}

/**
 * The database as a server or the CLI opens it with DB_STATEMENT_TIMEOUT_MS=300 (through the suite's pooler when
 * there is one), with one connection: a request after a migration gets the migrator's connection. PGlite belongs to
 * one process and has no time limits: its own handle.
 */
async function limited(handle: TestDatabase): Promise<DatabaseHandle> {
  if (handle.kind !== "postgres") return handle;
  const bouncerPort = inject("pgbouncerPort");
  const pooled = new URL(handle.url!);
  if (bouncerPort) pooled.port = String(bouncerPort);
  const h = await openDatabase({
    databaseUrl: pooled.toString(),
    pgliteDir: "",
    statementTimeoutMs: LIMIT_MS,
    poolSize: 1,
    ...(bouncerPort && { poolMode: "transaction", listenUrl: handle.url! }),
  });
  toClose.push(h);
  return h;
}

/** How a statement ended, and after how long. */
async function timed(run: () => Promise<unknown>): Promise<{ ok: boolean; code?: string; ms: number }> {
  const t0 = performance.now();
  try {
    await run();
    return { ok: true, ms: performance.now() - t0 };
  } catch (err) {
    return { ok: false, code: (err as { code?: string }).code, ms: performance.now() - t0 };
  }
}

/** A request's statements keep both limits: the server's and, when the server's is lifted, the client's. */
async function expectRequestLimits(db: DatabaseHandle["db"]): Promise<void> {
  const outside = await timed(() => sql`select pg_sleep(${SLOW_S})`.execute(db));
  expect(outside).toMatchObject({ ok: false, code: "57014" }); // canceled by the statement timeout
  const inside = await timed(() => db.transaction().execute((trx) => sql`select pg_sleep(${SLOW_S})`.execute(trx)));
  expect(inside).toMatchObject({ ok: false, code: "57014" });
  // A server that does not cancel it (here: told not to) is given up on by the client 1 s after the limit. (The
  // transaction's rollback may wait for the statement's end: without pipelining, node-postgres keeps the connection.)
  let unlimitedOnServer: Awaited<ReturnType<typeof timed>> | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      await sql`set local statement_timeout = 0`.execute(trx);
      unlimitedOnServer = await timed(() => sql`select pg_sleep(${SLOW_S})`.execute(trx));
      throw new Error("rolled back");
    })
    .catch(() => {});
  expect(unlimitedOnServer!.ok).toBe(false);
  expect(unlimitedOnServer!.ms).toBeGreaterThanOrEqual(LIMIT_MS + 1_000 - 50);
  // Not the server's cancel: the client's "Query read timeout", or (pipelined) the connection it ended.
  expect(unlimitedOnServer!.code).toBeUndefined();
  // And the pool goes on (with a new connection where the client ended its own).
  expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
}

/** Kysely's migrator with `migrations`, on its own tables. */
const migratorOf = (db: DatabaseHandle["db"], migrations: Record<string, Migration>) =>
  new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: "slow_migration",
    migrationLockTableName: "slow_migration_lock",
  });

it("a statement of Kysely's migrator runs past the statement limit and the client's wait, on this service's dialect", async () => {
  const handle = await testDatabase(false);
  const db = (await limited(handle)).db;
  const migrator = migratorOf(db, {
    "9000_slow": {
      up: async (trx) => {
        await sql`select pg_sleep(${SLOW_S})`.execute(trx);
        await sql`create table slow_check (id int)`.execute(trx);
      },
    },
  });
  const t0 = performance.now();
  const { error, results } = await migrator.migrateToLatest();
  expect(error).toBeUndefined();
  expect(results?.map((r) => [r.migrationName, r.status])).toEqual([["9000_slow", "Success"]]);
  expect(performance.now() - t0).toBeGreaterThanOrEqual(SLOW_S * 1_000 - 50);
  expect((await sql`select * from slow_check`.execute(db)).rows).toEqual([]);
  if (handle.kind === "postgres") await expectRequestLimits(db);
});

it.runIf(process.env.TEST_DB === "postgres")(
  "an index a migration builds for longer than the statement limit and the client's wait is built; requests keep their limits after it, on the migrator's connection",
  async () => {
    const handle = await testDatabase(true);
    // What the release before 0021 leaves.
    const before = await new Migrator({ db: handle.db, provider: { getMigrations: async () => MIGRATIONS } }).migrateTo(
      "0020_sealed_secrets",
    );
    if (before.error) throw new Error("migrating to the release before failed", { cause: before.error });
    // 0021's index as a large table's: its CREATE INDEX takes SLOW_S (once; the sequence counts outside transactions).
    await sql
      .raw(
        `create sequence slow_index_once;
         create function slow_index() returns event_trigger language plpgsql as $$
           begin if nextval('slow_index_once') = 1 then perform pg_sleep(${SLOW_S}); end if; end $$;
         create event trigger slow_index on ddl_command_end when tag in ('CREATE INDEX') execute function slow_index()`,
      )
      .execute(handle.db);
    const db = (await limited(handle)).db;
    await expectRequestLimits(db);
    const t0 = performance.now();
    const outcome = await migrateToLatest(db);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(SLOW_S * 1_000 - 50);
    expect(outcome.applied).toEqual(Object.keys(MIGRATIONS).filter((m) => m > "0020_sealed_secrets"));
    const slowed = await sql<{ n: string }>`select last_value::text as n from slow_index_once`.execute(db);
    expect(slowed.rows).toEqual([{ n: "1" }]);
    await expectRequestLimits(db);
  },
);

it.runIf(process.env.TEST_DB === "postgres")(
  "a migrator waits for another's lock past the statement limit (each try waits 1 s, the limit is 300 ms)",
  async () => {
    const handle = await testDatabase(false);
    const db = (await limited(handle)).db;
    const holder = new pg.Client({ connectionString: handle.url });
    await holder.connect();
    try {
      // Its own session's limits: behind the suite's pooler, `limited` set the role's to the test's (pooler.ts).
      await holder.query("set idle_in_transaction_session_timeout = 0; set statement_timeout = 0");
      await holder.query(`begin; select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const release = setTimeout(() => void holder.query("commit"), 1_500);
      const t0 = performance.now();
      const { error, results } = await migratorOf(db, {
        "9001_after_wait": { up: async (trx) => void (await sql`create table waited_check (id int)`.execute(trx)) },
      }).migrateToLatest();
      clearTimeout(release);
      expect(error).toBeUndefined();
      expect(results?.map((r) => r.status)).toEqual(["Success"]);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(1_400);
    } finally {
      await holder.end();
    }
  },
);
