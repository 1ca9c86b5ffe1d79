// Writes outside a transaction that arrive while the batch connections are busy go together, as one transaction
// (server/db/write-batches.ts). What must hold: each caller gets its own statement's answer, only once its commit is
// durable; one failing statement costs the others nothing (the batch is rolled back and each runs alone); a lost
// connection fails what it had in flight as "database unavailable" and sends none of it again.
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../server/db/availability.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { writes } from "../../server/db/statement-ways.ts";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let server: DatabaseHandle;
let admin: pg.Client;

beforeAll(async () => {
  handle = await createTestDatabase();
  // As the server opens it: a pool of 10, two of them shared by reads.
  server = await openDatabase({ databaseUrl: handle.url!, pgliteDir: "", onConnectionError: () => {} });
  await sql`create table batch_check (id int primary key, note text not null default '')`.execute(server.db);
  admin = new pg.Client({ connectionString: handle.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await server?.close();
  await handle?.close();
});
beforeEach(async () => {
  await admin.query("delete from batch_check");
});

const stored = async () =>
  (await admin.query<{ id: number }>("select id from batch_check order by id")).rows.map((r) => r.id);

const insert = (id: number, note = "") =>
  sql<{ id: number; tx: string }>`insert into batch_check (id, note) values (${id}, ${note})
    returning id, txid_current()::text as tx`
    .withPlugin(writes)
    .execute(server.db);

describe("writes outside a transaction", () => {
  it("that arrive together share transactions, each with its own answer, each durable before it is answered", async () => {
    const ids = Array.from({ length: 200 }, (_, i) => i + 1);
    const seenAtAnswer: number[] = [];
    const answers = await Promise.all(
      ids.map(async (id) => {
        const r = await insert(id);
        // Answered only after the commit: another session sees the row at once.
        const { rows } = await admin.query("select 1 from batch_check where id = $1", [id]);
        seenAtAnswer.push(rows.length);
        return r.rows[0]!;
      }),
    );
    expect(answers.map((a) => a.id)).toEqual(ids);
    expect(seenAtAnswer).toEqual(ids.map(() => 1));
    expect(await stored()).toEqual(ids);
    // Batched: far fewer transactions than writes (one each, unbatched).
    const transactions = new Set(answers.map((a) => a.tx)).size;
    expect(transactions).toBeGreaterThan(1);
    expect(transactions).toBeLessThan(100);
  });

  it("are answered only once the batch's commit is done, not when their own statement is", async () => {
    // Sent in one turn, the two go together; the second keeps the batch's commit waiting.
    const slow = sql`insert into batch_check (id) select 2 from pg_sleep(0.3)`.withPlugin(writes).execute(server.db);
    const fast = insert(1).then(async (r) => {
      const { rows } = await admin.query("select 1 from batch_check where id = 1");
      return { tx: r.rows[0]!.tx, seen: rows.length };
    });
    const [{ tx, seen }] = await Promise.all([fast, slow]);
    expect(seen).toBe(1);
    const { rows } = await admin.query<{ xmin: string }>("select xmin::text from batch_check order by id");
    expect(rows.map((r) => r.xmin)).toEqual([tx, tx]);
  });

  it("sent one after another each commit alone, at once", async () => {
    const txs = [];
    for (const id of [1, 2, 3]) txs.push((await insert(id)).rows[0]!.tx);
    expect(new Set(txs).size).toBe(3);
    expect(await stored()).toEqual([1, 2, 3]);
  });

  it("lose nothing to one that fails beside them: it gets its own error, the others are stored once", async () => {
    await insert(25);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        insert(i + 1).then(
          (r) => r.rows[0]!.id,
          (e: unknown) => e as { code?: string },
        ),
      ),
    );
    const failed = outcomes.filter((o) => typeof o !== "number");
    // The duplicate's own unique violation, not "current transaction is aborted".
    expect(failed.map((f) => f.code)).toEqual(["23505"]);
    expect(outcomes.filter((o) => typeof o === "number")).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1).filter((id) => id !== 25),
    );
    expect(await stored()).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it("fail as unavailable when their connection is lost, none of them sent again, and the next ones pass", async () => {
    // Slow writes: the first goes alone; the rest wait and go together behind it.
    const slowInsert = (id: number) =>
      sql`insert into batch_check (id) select ${id} from pg_sleep(0.4)`
        .withPlugin(writes)
        .execute(server.db)
        .then(
          () => "ok",
          (e: unknown) => e,
        );
    const inFlight = Array.from({ length: 12 }, (_, i) => slowInsert(100 + i));
    await new Promise((r) => setTimeout(r, 150));
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and query like '%pg_sleep(0.4)%'`,
    );
    const outcomes = await Promise.all(inFlight);
    const failed = outcomes.filter((o) => o !== "ok");
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(isDatabaseUnavailable(f)).toBe(true);
    // What failed was not written, and nothing was written twice (the primary key would have refused it).
    const ids = await stored();
    expect(ids.length).toBe(outcomes.length - failed.length);
    await insert(1);
    expect((await stored()).includes(1)).toBe(true);
  });
});
