// Durable commits on the embedded database (issue 52, server/db/embedded-flush.mjs): by default PostgreSQL runs with
// its flushes on and asks for the log's by fsync, and the handle has a barrier that resolves once the commits
// answered so far are on the disk; PGLITE_DURABILITY=relaxed keeps the old behaviour (no flush, no barrier).
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, expect, inject, it } from "vitest";
import { openEmbedded, type DatabaseHandle } from "../../server/db/database.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-durable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A copy of the run's migrated database: a new one takes long to make on a loaded machine. */
const copy = (name: string) => {
  cpSync(inject("pgliteTemplate"), path.join(dir, name), { recursive: true });
  return path.join(dir, name);
};

const settings = async (h: DatabaseHandle) => {
  const show = async (name: string) =>
    ((await sql.raw(`show ${name}`).execute(h.db)).rows[0] as Record<string, string>)[name];
  return { fsync: await show("fsync"), walSyncMethod: await show("wal_sync_method") };
};

it("durable by default: flushes on, the log's by fsync, and a barrier that waits for concurrent commits together", async () => {
  const db = copy("durable");
  const h = await openEmbedded(db);
  try {
    expect(await settings(h)).toEqual({ fsync: "on", walSyncMethod: "fsync" });
    expect(h.durable).toBeTypeOf("function");
    await sql`create table t (id serial primary key, v text)`.execute(h.db);
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await sql`insert into t (v) values (${String(i)})`.execute(h.db);
        await h.durable!();
      }),
    );
    // Nothing written since: at once.
    await h.durable!();
    expect((await sql`select count(*)::int as n from t`.execute(h.db)).rows).toEqual([{ n: 20 }]);
  } finally {
    await h.close();
  }
  // The closed directory opens again with every row.
  const again = await openEmbedded(db);
  try {
    expect((await sql`select count(*)::int as n from t`.execute(again.db)).rows).toEqual([{ n: 20 }]);
  } finally {
    await again.close();
  }
});

it("relaxed: PGlite's own settings (no flush) and no barrier", async () => {
  const h = await openEmbedded(copy("relaxed"), { durability: "relaxed" });
  try {
    expect(await settings(h)).toEqual({ fsync: "off", walSyncMethod: "fdatasync" });
    expect(h.durable).toBeUndefined();
  } finally {
    await h.close();
  }
});
