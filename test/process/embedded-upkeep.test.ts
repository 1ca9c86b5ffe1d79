// The embedded database has no autovacuum (server/db/upkeep.ts): the housekeeping analyses tables that grew, so
// that statements planned while they were small are planned again, and its sweep vacuums every table.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openEmbedded, type DatabaseHandle } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { Housekeeping } from "../../server/housekeeping.ts";
import { startTestServer } from "../helpers/server.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-upkeep-"));
let h: DatabaseHandle;
beforeAll(async () => {
  h = await openEmbedded(path.join(dir, "db"));
  await migrateToLatest(h.db);
  await sql`create table probe (id int primary key, body text not null)`.execute(h.db);
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const lines: string[] = [];
const housekeeping = () =>
  new Housekeeping({
    db: h.db,
    logger: pino({ level: "debug" }, { write: (l: string) => void lines.push(l) }),
    deliveryRetentionDays: 30,
    embedded: true,
  });
const insert = (from: number, to: number) =>
  sql`insert into probe select g, repeat('x', 100) from generate_series(${from}::int, ${to}::int) g`.execute(h.db);
const planOf = async () =>
  (await sql<{ "QUERY PLAN": string }>`explain execute probe_by_id(7)`.execute(h.db)).rows
    .map((r) => r["QUERY PLAN"])
    .join("\n");
const statistics = async () =>
  (
    await sql<{ reltuples: number }>`select reltuples::int as reltuples from pg_class where relname = 'probe'`.execute(
      h.db,
    )
  ).rows[0]!.reltuples;

it("a statement planned while its table was small is planned again once the table grew and was analysed", async () => {
  await insert(1, 10);
  await housekeeping().run(); // as 5 s after a start on a new directory: statistics of a 10-row table
  expect(await statistics()).toBe(10);
  // PGlite is one session: the prepared statement stays there, as the server's named statements do.
  await sql`prepare probe_by_id(int) as select body from probe where id = $1`.execute(h.db);
  for (let i = 0; i < 6; i++) await sql`execute probe_by_id(7)`.execute(h.db); // past the custom plans: one generic plan
  expect(await planOf()).toMatch(/Seq Scan on probe/);

  await insert(11, 20_000);
  expect(await planOf()).toMatch(/Seq Scan on probe/); // stale: what the server read shipments with until a restart
  expect(await housekeeping().refreshStatistics()).toEqual(["probe"]);
  expect(await statistics()).toBe(20_000);
  expect(await planOf()).toMatch(/Index Scan using probe_pkey/);
  // Nothing grew since: nothing to analyse.
  expect(await housekeeping().refreshStatistics()).toEqual([]);
  expect(lines.join("")).toContain("planner statistics refreshed");
});

it("the sweep vacuums every table: the space of deleted rows is reclaimed", async () => {
  await sql`delete from probe`.execute(h.db);
  const size = async () =>
    Number((await sql<{ n: string }>`select pg_relation_size('probe') as n`.execute(h.db)).rows[0]!.n);
  expect(await size()).toBeGreaterThan(1_000_000);
  lines.length = 0;
  await housekeeping().run();
  // VACUUM truncates the empty pages at the end of a table.
  expect(await size()).toBe(0);
  expect(lines.join("")).toMatch(/"tables":\d+.*housekeeping: tables vacuumed/);
  expect(lines.join("")).not.toContain("failed");
});

it("started, the housekeeping refreshes the statistics by itself", async () => {
  await insert(1, 5_000);
  const h2 = new Housekeeping({
    db: h.db,
    logger: pino({ level: "silent" }),
    deliveryRetentionDays: 30,
    embedded: true,
    intervalMs: 60 * 60_000,
    statisticsIntervalMs: 50,
  });
  h2.start();
  try {
    // Well before the first sweep (5 s), whose VACUUM would also count the rows.
    await expect.poll(statistics, { timeout: 3_000 }).toBe(5_000);
  } finally {
    await h2.stop();
  }
});

it("a server on the embedded database runs this upkeep: its first sweep vacuums", async () => {
  // The composition root as `npm start` has it (services.ts), with its worker: the housekeeping's first sweep is 5 s in.
  const srv = await startTestServer({ dispatcher: true });
  try {
    const db = srv.handle.db;
    await sql`create table probe (id int primary key, body text not null)`.execute(db);
    await sql`insert into probe select g, repeat('x', 100) from generate_series(1, 10000) g`.execute(db);
    await sql`delete from probe`.execute(db);
    const size = async () =>
      Number((await sql<{ n: string }>`select pg_relation_size('probe') as n`.execute(db)).rows[0]!.n);
    expect(await size()).toBeGreaterThan(1_000_000);
    await expect.poll(size, { timeout: 15_000, interval: 500 }).toBe(0);
  } finally {
    await srv.close();
  }
});
