// Reads outside a transaction share two pipelined connections (server/db/shared-connections.ts). What must hold:
// each statement gets its own answer however many are in flight, a slow statement does not hold back the ones sent
// after it, a transaction and a write keep a connection of their own, and a shared connection that the database
// drops is replaced by the next statement, its own statements failing as "database unavailable" (503).
import { sql, type RawBuilder } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../server/db/availability.ts";
import { LIFETIME_MS } from "../../server/db/shared-connections.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { reads, writes } from "../../server/db/statement-ways.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { createTestDatabase } from "../helpers/database.ts";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let server: DatabaseHandle;
const lost: Error[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  // As the server opens it: a pool of 10, two of them shared.
  server = await openDatabase({ databaseUrl: handle.url!, pgliteDir: "", onConnectionError: (e) => lost.push(e) });
  await sql`create table shared_check (id int primary key)`.execute(server.db);
});
afterAll(async () => {
  await server?.close();
  await handle?.close();
});

const backend = async (e: DatabaseHandle["db"] = server.db) =>
  (await sql<{ pid: number }>`select pg_backend_pid() as pid`.withPlugin(reads).execute(e)).rows[0]!.pid;

describe("statements outside a transaction, on shared connections", () => {
  it("give each statement its own answer with hundreds in flight, the same named statement on each", async () => {
    const asked = Array.from({ length: 300 }, (_, i) => i);
    const answers = await Promise.all(
      asked.map(
        async (n) => (await sql<{ n: number }>`select ${n}::int as n`.withPlugin(reads).execute(server.db)).rows[0]!.n,
      ),
    );
    expect(answers).toEqual(asked);
    // They went over the two shared connections, not the pool's ten.
    const pids = await Promise.all(Array.from({ length: 40 }, () => backend()));
    expect(new Set(pids).size).toBeLessThanOrEqual(2);
  });

  it("do not wait behind a slow statement: a shared connection busy for longer than a moment takes no more", async () => {
    const slow = sql`select pg_sleep(1.5)`.withPlugin(reads).execute(server.db);
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    const quick = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sql<{ n: number }>`select ${i}::int as n`.withPlugin(reads).execute(server.db),
      ),
    );
    const took = performance.now() - started;
    expect(quick.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // Behind the sleep they would have taken at least 1.4 s more.
    expect(took).toBeLessThan(1000);
    await slow;
  });

  it("keep a transaction on a connection of its own: its statements share one session, unseen outside until commit", async () => {
    const shared = new Set(await Promise.all(Array.from({ length: 20 }, () => backend())));
    let seenOutside = -1;
    const pids = await inTransaction(server.db, async (trx) => {
      const first = await backend(trx);
      await sql`insert into shared_check values (1)`.execute(trx);
      seenOutside = Number(
        (await sql<{ n: string }>`select count(*) as n from shared_check`.withPlugin(reads).execute(server.db)).rows[0]!
          .n,
      );
      return [first, await backend(trx)];
    });
    expect(pids[0]).toBe(pids[1]);
    expect(shared.has(pids[0]!)).toBe(false);
    expect(seenOutside).toBe(0);
    const after = await sql<{ n: string }>`select count(*) as n from shared_check`.withPlugin(reads).execute(server.db);
    expect(Number(after.rows[0]!.n)).toBe(1);
    await sql`delete from shared_check`.execute(server.db);
  });

  it("replace a shared connection the database dropped; what it had in flight fails as unavailable", async () => {
    const pids = new Set(await Promise.all(Array.from({ length: 20 }, () => backend())));
    const inFlight = Array.from({ length: 10 }, () =>
      sql`select pg_sleep(0.3)`
        .withPlugin(reads)
        .execute(server.db)
        .then(
          () => "ok",
          (e: unknown) => e,
        ),
    );
    await new Promise((r) => setTimeout(r, 50));
    const admin = new pg.Client({ connectionString: handle.url });
    await admin.connect();
    try {
      await admin.query("select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [[...pids]]);
    } finally {
      await admin.end();
    }
    const outcomes = await Promise.all(inFlight);
    const failed = outcomes.filter((o) => o !== "ok");
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(isDatabaseUnavailable(f)).toBe(true);
    expect(lost.length).toBeGreaterThan(0);
    // The next statements open new shared connections and succeed.
    await expect
      .poll(
        async () =>
          backend().then(
            (pid) => !pids.has(pid),
            () => false,
          ),
        { timeout: 5000 },
      )
      .toBe(true);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sql<{ n: number }>`select ${i}::int as n`.withPlugin(reads).execute(server.db),
      ),
    );
    expect(answers.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});

describe("a write outside a transaction", () => {
  it("takes a pool connection: nothing waits behind its commit on a shared one", async () => {
    const shared = new Set(await Promise.all(Array.from({ length: 20 }, () => backend())));
    const wrote = await Promise.all(
      [11, 12, 13].map(
        async (id) =>
          (
            await sql<{
              pid: number;
            }>`insert into shared_check values (${id}) returning pg_backend_pid() as pid`
              .withPlugin(writes)
              .execute(server.db)
          ).rows[0]!.pid,
      ),
    );
    const viaWith = (
      await sql<{ pid: number }>`with gone as (delete from shared_check returning id)
        select pg_backend_pid() as pid from gone limit 1`
        .withPlugin(writes)
        .execute(server.db)
    ).rows[0]!.pid;
    for (const pid of [...wrote, viaWith]) expect(shared.has(pid)).toBe(false);
  });
});

describe("the way a statement takes, said where it is made (statement-ways.ts)", () => {
  const setting = sql<string>`current_setting('transaction_read_only')`;
  const raw = async (q: RawBuilder<{ ro: string }>) => (await q.execute(server.db)).rows[0]!.ro;
  const built = () => server.db.selectNoFrom(setting.as("ro"));

  it("a builder's select is a read, raw SQL only when its author says so; a leading comment changes nothing", async () => {
    // On a shared connection, which PostgreSQL holds read-only.
    expect((await built().executeTakeFirstOrThrow()).ro).toBe("on");
    expect(
      await raw(
        sql<{ ro: string }>`-- a comment first
      select ${setting} as ro`.withPlugin(reads),
      ),
    ).toBe("on");
    // Unsaid, raw SQL takes a connection of its own, whatever its text begins with (the text's regular expression
    // once sent this to a shared connection).
    expect(await raw(sql<{ ro: string }>`select ${setting} as ro`)).toBe("off");
    // A select said to write goes in a write batch.
    expect((await built().withPlugin(writes).executeTakeFirstOrThrow()).ro).toBe("off");
  });

  it("a builder's insert, or a select whose CTE deletes, is a write: never on a shared connection", async () => {
    const shared = new Set(await Promise.all(Array.from({ length: 20 }, () => backend())));
    const inserted = await server.db
      .insertInto("shared_check" as never)
      .values({ id: 21 } as never)
      .returning(sql<number>`pg_backend_pid()`.as("pid"))
      .execute();
    const viaCte = await server.db
      .with("gone", (db) => db.deleteFrom("shared_check" as never).returning("id" as never))
      .selectFrom("gone")
      .select(sql<number>`pg_backend_pid()`.as("pid"))
      .execute();
    expect(viaCte).toHaveLength(1);
    for (const row of [...inserted, ...viaCte]) expect(shared.has(row.pid)).toBe(false);
  });

  it("a statement that writes but is said to read fails at once on the read-only connection, storing nothing", async () => {
    await expect(sql`insert into shared_check values (31)`.withPlugin(reads).execute(server.db)).rejects.toMatchObject(
      { code: "25006" }, // read_only_sql_transaction
    );
    const { rows } = await sql<{ n: string }>`select count(*) as n from shared_check`
      .withPlugin(reads)
      .execute(server.db);
    expect(Number(rows[0]!.n)).toBe(0);
  });
});

describe("a statement that leaves state on its session", () => {
  it("keeps one connection from it to the release: a session's advisory lock taken and released is released", async () => {
    const lockId = 727_001;
    await server.db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${sql.lit(lockId)})`.execute(conn);
      // Shared connections busy meanwhile: were the unlock to go on one of them, it would not find the lock there.
      const busy = sql`select pg_sleep(0.3)`.withPlugin(reads).execute(server.db);
      await new Promise((r) => setTimeout(r, 50));
      await sql`select pg_advisory_unlock(${sql.lit(lockId)})`.execute(conn);
      await busy;
    });
    // Another session can take it now (left held, this would say false).
    const admin = new pg.Client({ connectionString: handle.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ok: boolean }>(`select pg_try_advisory_lock(${lockId}) as ok`);
      expect(rows[0]!.ok).toBe(true);
    } finally {
      await admin.end();
    }
  });
});

describe("a shared connection's age", () => {
  it("is renewed every few seconds, and no statement fails meanwhile", async () => {
    const first = new Set(await Promise.all(Array.from({ length: 10 }, () => backend())));
    const failures: unknown[] = [];
    const seen = new Set<number>();
    const until = Date.now() + LIFETIME_MS + 1_500;
    while (Date.now() < until) {
      const batch = await Promise.all(
        Array.from({ length: 5 }, () => backend().catch((e: unknown) => (failures.push(e), 0))),
      );
      for (const pid of batch) seen.add(pid);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(failures).toEqual([]);
    expect([...seen].some((pid) => !first.has(pid))).toBe(true);
  });

  it("past its lifetime it still answers while its successor starts, then the successor takes over", async () => {
    const old = new Set(await Promise.all(Array.from({ length: 10 }, () => backend())));
    await new Promise((r) => setTimeout(r, LIFETIME_MS + 200));
    // No statement waits for a new connection's start: the sessions there answer at once (before, these went to
    // the new sessions, after their start).
    const answered = await Promise.all(Array.from({ length: 10 }, () => backend()));
    for (const pid of answered) expect(old.has(pid)).toBe(true);
    await expect
      .poll(async () => (await Promise.all(Array.from({ length: 4 }, () => backend()))).some((p) => !old.has(p)), {
        timeout: 5_000,
      })
      .toBe(true);
  });
});
