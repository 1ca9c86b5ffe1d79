// A transaction's `begin` goes on the wire with its first statement (server/db/begin-rides.ts): one exchange fewer
// per transaction. What must not change: the statements of a transaction are one transaction, a failure rolls all
// of it back, and a transaction that ends before its first statement leaves nothing open on the session.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beginRidesAlong } from "../../server/db/begin-rides.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import type { Send } from "../../server/db/pool-clients.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { createTestDatabase } from "../helpers/database.ts";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
/** One connection (PGlite has only one; on PostgreSQL a pool of one), so each check sees the session the last left. */
let db: DatabaseHandle["db"];
let single: DatabaseHandle | undefined;

beforeAll(async () => {
  handle = await createTestDatabase();
  single = handle.url ? await openDatabase({ databaseUrl: handle.url, pgliteDir: "", poolSize: 1 }) : undefined;
  db = (single ?? handle).db;
  await sql`create table ride_check (id int primary key)`.execute(db);
});
afterAll(async () => {
  await single?.close();
  await handle?.close();
});

const rows = async () =>
  (await sql<{ id: number }>`select id from ride_check order by id`.execute(db)).rows.map((r) => r.id);
const txid = async (e: typeof db) =>
  (await sql<{ x: string; at: string }>`select txid_current()::text as x, now()::text as at`.execute(e)).rows[0]!;

describe("a transaction whose begin rides with its first statement", () => {
  it("runs its statements in one transaction, and the next statement outside it in another", async () => {
    const [a, b] = await inTransaction(db, async (trx) => [await txid(trx), await txid(trx)]);
    expect(b).toEqual(a);
    const after = await txid(db);
    expect(after.x).not.toBe(a.x);
  });

  it("rolls back every statement when a later one fails, and the session goes on", async () => {
    const failed = inTransaction(db, async (trx) => {
      await sql`insert into ride_check values (1)`.execute(trx);
      await sql`insert into ride_check values (1)`.execute(trx);
    });
    await expect(failed).rejects.toMatchObject({ code: "23505" });
    expect(await rows()).toEqual([]);
    await inTransaction(db, (trx) => sql`insert into ride_check values (2)`.execute(trx));
    expect(await rows()).toEqual([2]);
    await sql`delete from ride_check`.execute(db);
  });

  it("rolls back when its first statement fails, and the session goes on", async () => {
    const failed = inTransaction(db, (trx) => sql`insert into ride_check values (null)`.execute(trx));
    await expect(failed).rejects.toMatchObject({ code: "23502" });
    const [a, b] = await inTransaction(db, async (trx) => [await txid(trx), await txid(trx)]);
    expect(b).toEqual(a);
    expect(await rows()).toEqual([]);
  });

  it("rolls back statements that ran when the work throws after them", async () => {
    const failed = inTransaction(db, async (trx) => {
      await sql`insert into ride_check values (3)`.execute(trx);
      throw new Error("the caller changed its mind");
    });
    await expect(failed).rejects.toThrow("the caller changed its mind");
    expect(await rows()).toEqual([]);
  });

  it("leaves no transaction open when it ends before its first statement, by a commit or a rollback", async () => {
    await inTransaction(db, async () => "nothing to do");
    await expect(
      inTransaction(db, async () => {
        throw new Error("refused before any statement");
      }),
    ).rejects.toThrow("refused before any statement");
    // Inside a stray open transaction, two statements would share a transaction id.
    const first = await txid(db);
    const second = await txid(db);
    expect(second.x).not.toBe(first.x);
  });
});

describe("the sending policy", () => {
  /** A client whose query records what reaches the wire, and whether the socket was corked meanwhile. */
  function fakeClient(fail?: string) {
    const wire: string[] = [];
    let corked = 0;
    const query = (text: unknown) => {
      const t = typeof text === "string" ? text : (text as { text: string }).text;
      wire.push(corked ? `${t} (corked)` : t);
      return t === fail ? Promise.reject(new Error(`${t} failed`)) : Promise.resolve({ rows: [], command: t });
    };
    const stream = { cork: () => void corked++, uncork: () => void (corked = 0) };
    const client = { connection: { stream } } as unknown as Parameters<Send>[3];
    return { wire, query, client };
  }
  const plain: Send = (query, text, values) => query(text, values);

  it("sends begin only with the next statement, both while the socket is corked", async () => {
    const send = beginRidesAlong(plain);
    const c = fakeClient();
    await send(c.query, "begin", [], c.client);
    expect(c.wire).toEqual([]);
    await send(c.query, "select 1", [], c.client);
    await send(c.query, "select 2", [], c.client);
    await send(c.query, "commit", [], c.client);
    expect(c.wire).toEqual(["begin (corked)", "select 1 (corked)", "select 2", "commit"]);
  });

  it("sends nothing for a transaction that ends before its first statement", async () => {
    const send = beginRidesAlong(plain);
    const c = fakeClient();
    await send(c.query, "begin", [], c.client);
    await send(c.query, "rollback", [], c.client);
    await send(c.query, "begin", [], c.client);
    await send(c.query, "commit", [], c.client);
    expect(c.wire).toEqual([]);
  });

  it("fails the first statement when its begin failed", async () => {
    const send = beginRidesAlong(plain);
    const c = fakeClient("begin");
    await send(c.query, "begin", [], c.client);
    await expect(send(c.query, "select 1", [], c.client)).rejects.toThrow("begin failed");
  });

  it("keeps each connection's begin to itself", async () => {
    const send = beginRidesAlong(plain);
    const one = fakeClient();
    const two = fakeClient();
    await send(one.query, "begin", [], one.client);
    await send(two.query, "select 1", [], two.client);
    expect(two.wire).toEqual(["select 1"]);
    await send(one.query, "select 1", [], one.client);
    expect(one.wire).toEqual(["begin (corked)", "select 1 (corked)"]);
  });
});
