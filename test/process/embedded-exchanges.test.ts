// The embedded database's one session is what every request waits for, so its exchanges with the database's thread
// are counted: a statement alone is one exchange, sent at once; statements outside a transaction that arrive
// together go over together, each its own (session-rounds.ts); a transaction's begin goes over with its first
// statement (begin-rides.ts, the connection corked meanwhile), and a transaction that ends before any statement
// makes no exchange at all.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Kysely, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { inject } from "vitest";
import { RoutedDialect } from "../../server/db/dialect.ts";
import { embeddedSession } from "../../server/db/embedded-connection.ts";
import { startEmbeddedThread, type EmbeddedThread } from "../../server/db/embedded-thread.ts";
import { namingPool } from "../../server/db/named-statements.ts";
import type { Database } from "../../server/db/schema.ts";
import { reads, writes } from "../../server/db/statement-ways.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-exchanges-"));
let thread: EmbeddedThread;
let db: Kysely<Database>;
/** The first bytes of each exchange's frontend messages, as letters: Q a simple query, P parse, B bind... */
const exchanges: string[] = [];

beforeAll(async () => {
  cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  thread = await startEmbeddedThread(path.join(dir, "db"), []);
  const { pool } = embeddedSession(async (frontend) => {
    exchanges.push(messageTypes(frontend));
    return thread.exchange(frontend);
  });
  db = new Kysely<Database>({ dialect: new RoutedDialect(namingPool(pool, { session: true })) });
  await sql`create table rounds (n int not null)`.execute(db);
});
afterAll(async () => {
  await db?.destroy();
  await thread?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The protocol's message types in one exchange, e.g. "Q" for a simple query, "PBDES" for a prepared one. */
function messageTypes(frontend: Uint8Array): string {
  let types = "";
  for (let at = 0; at < frontend.length;) {
    types += String.fromCharCode(frontend[at]!);
    at += 1 + new DataView(frontend.buffer, frontend.byteOffset + at + 1, 4).getInt32(0);
  }
  return types;
}

const counted = async (work: () => Promise<unknown>) => {
  exchanges.length = 0;
  await work();
  return [...exchanges];
};

it("a statement outside a transaction is one exchange", async () => {
  expect(await counted(() => sql`select ${1}::int as n`.execute(db))).toEqual(["PBDES"]);
});

it("a transaction's begin goes with its first statement; each later statement and the commit go alone", async () => {
  const sent = await counted(() =>
    db.transaction().execute(async (trx) => {
      await sql`select ${1}::int as n`.execute(trx);
      await sql`select ${2}::int as n`.execute(trx);
    }),
  );
  expect(sent).toEqual(["QBDES", "BDES", "Q"]);
});

it("a transaction that ends before any statement makes no exchange", async () => {
  expect(await counted(() => db.transaction().execute(async () => "nothing"))).toEqual([]);
  const refused = db.transaction().execute(async () => {
    throw new Error("refused before any statement");
  });
  await expect(refused).rejects.toThrow("refused before any statement");
  expect(exchanges).toEqual([]);
});

it("statements outside a transaction that arrive together go in one exchange, each with its own answer", async () => {
  const sent = await counted(async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => sql<{ n: number }>`select ${n}::int as n`.withPlugin(reads).execute(db)),
    );
    expect(answers.map((a) => a.rows)).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }], [{ n: 4 }], [{ n: 5 }]]);
  });
  expect(sent).toHaveLength(1);
  // Five statements, each ending with its own Sync: each its own implicit transaction.
  expect(sent[0]!.split("S")).toHaveLength(6);
});

it("in one exchange, a failed statement fails alone: the writes beside it are stored", async () => {
  const sent = await counted(async () => {
    const answers = await Promise.allSettled([
      sql`insert into rounds (n) values (${1})`.withPlugin(writes).execute(db),
      sql`insert into rounds (n) values (${"not a number"})`.withPlugin(writes).execute(db),
      sql`select 1 / ${0}::int as n`.withPlugin(reads).execute(db),
      sql`insert into rounds (n) values (${2})`.withPlugin(writes).execute(db),
    ]);
    expect(answers.map((a) => a.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect((answers[1] as PromiseRejectedResult).reason).toMatchObject({ code: "22P02" });
    expect((answers[2] as PromiseRejectedResult).reason).toMatchObject({ code: "22012" });
  });
  expect(sent).toHaveLength(1);
  const stored = await sql<{ n: number }>`select n from rounds order by n`.execute(db);
  expect(stored.rows).toEqual([{ n: 1 }, { n: 2 }]);
  await sql`delete from rounds`.execute(db);
});

it("a statement outside a transaction waits for the open one to end, and never runs inside it", async () => {
  await sql`delete from rounds`.execute(db);
  let outside: Promise<{ rows: { count: number }[] }> | undefined;
  let answeredInside = false;
  const rolledBack = db.transaction().execute(async (trx) => {
    await sql`insert into rounds (n) values (${7})`.execute(trx);
    outside = sql<{ count: number }>`select count(*)::int as count from rounds`.execute(db);
    void outside.then(() => (answeredInside = true));
    // Long enough for the outside statement to have been answered, had it run on the session now.
    await new Promise((r) => setTimeout(r, 100));
    expect(answeredInside).toBe(false);
    throw new Error("rolled back");
  });
  await expect(rolledBack).rejects.toThrow("rolled back");
  // Run inside the transaction it would have counted the row that was rolled back.
  expect((await outside!).rows).toEqual([{ count: 0 }]);
});
