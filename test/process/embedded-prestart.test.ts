// The embedded database opened early (server/db/embedded-open.ts): main.ts starts it before the server's modules
// load, and the server's openEmbedded of the same directory takes that opening over instead of opening again.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { openEmbedded } from "../../server/db/database.ts";
import { prestartEmbedded } from "../../server/db/embedded-open.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-prestart-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("an early opening holds the directory's lock at once and is the one the server then uses", async () => {
  const db = path.join(dir, "early");
  prestartEmbedded(db);
  // Locked before anything else of the process runs: a second process is refused from the first moment.
  expect(readFileSync(`${db}.lock`, "utf8")).toMatch(new RegExp(`^${process.pid} \\d+$`));
  // Had the server's opening opened the directory again, it would now find the lock another live process's.
  writeFileSync(`${db}.lock`, "1");
  const h = await openEmbedded(db);
  try {
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(h.db);
    expect(rows).toEqual([{ one: 1 }]);
  } finally {
    await h.close();
  }
  expect(existsSync(`${db}.lock`)).toBe(false);
  // Taken over once: the next opening of the directory is a new one, and works as well.
  const again = await openEmbedded(db);
  await again.close();
});

it("an early opening that fails is reported by the server's opening, with the same message as without it", async () => {
  const db = path.join(dir, "in-use");
  // Process 1 is alive on every machine: the directory is another live process's.
  writeFileSync(`${db}.lock`, "1");
  prestartEmbedded(db);
  await expect(openEmbedded(db)).rejects.toThrow(
    `The embedded database ${db} is in use by process 1. Stop it first, or set DATABASE_URL to use PostgreSQL.`,
  );
  expect(readFileSync(`${db}.lock`, "utf8")).toBe("1");
});

it("an opening of another directory is its own, and leaves the early one to its taker", async () => {
  const early = path.join(dir, "a");
  const other = path.join(dir, "b");
  prestartEmbedded(early);
  const b = await openEmbedded(other);
  await sql`create table here (id int)`.execute(b.db);
  await b.close();
  const a = await openEmbedded(early);
  try {
    const { rows } = await sql<{ present: boolean }>`select to_regclass('here') is not null as present`.execute(a.db);
    expect(rows).toEqual([{ present: false }]);
  } finally {
    await a.close();
  }
});
