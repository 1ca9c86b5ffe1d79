// The embedded database's one session is what every request waits for, so its exchanges with the database's thread
// are counted: a statement alone is one exchange, sent at once; a transaction's begin goes over with its first
// statement (begin-rides.ts, the connection corked meanwhile), and a transaction that ends before any statement
// makes no exchange at all.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { inject } from "vitest";
import { embeddedSession } from "../../server/db/embedded-connection.ts";
import { startEmbeddedThread, type EmbeddedThread } from "../../server/db/embedded-thread.ts";
import { namingPool } from "../../server/db/named-statements.ts";
import type { Database } from "../../server/db/schema.ts";

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
  db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namingPool(pool) }) });
  await sql`select 1`.execute(db);
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
