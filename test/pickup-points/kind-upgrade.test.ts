// Upgrading over 0023 (issue 51 item 3): the points the release before stored get their kind from their stored
// carrier_info, by the one mapping (pickup-points/kind.ts), across more than one slice of the backfill; that release's
// inserts, which name no kind, still work (unknown until the next import); the column holds only the spec's words.
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MIGRATIONS } from "../../server/db/migrations/index.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { importPickupPoints } from "../../server/pickup-points/imports.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { point } from "../helpers/shipping.ts";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;

// By i % 6: the carriers' words of each kind, a word no carrier list has, and no type at all.
const TYPES = ["PARCELLOCKER", "POSTOFFICE", "Noutopiste", "Pakettiautomaatti", "TERMINAL", null];
const ROWS = 5003; // the backfill's slice is 5000: two slices

/** Points as the release before stores them: no kind. */
const insertBefore = (from: number, to: number) =>
  sql`insert into pickup_points (id, name, address, postalcode, city, country, lat, lon, branch, location_info, carrier_info)
    select lpad(to_hex(i), 24, '0'), 'P' || i, 'Katu 1', '20780', 'KAARINA', 'FI', 60.4, 22.4, 'fi.posti', null,
      jsonb_build_object('fi_posti', jsonb_strip_nulls(jsonb_build_object('id', i::text,
        'type', (${JSON.stringify(TYPES)}::jsonb) ->> (i % 6))))
    from generate_series(${from}::int, ${to}::int) as i`.execute(handle.db);

const kinds = async () =>
  (
    await sql<{
      kind: string;
      n: string;
    }>`select kind, count(*) as n from pickup_points group by kind order by kind`.execute(handle.db)
  ).rows.map((r) => [r.kind, Number(r.n)]);

beforeAll(async () => {
  handle = await createTestDatabase({ empty: true });
  const provider = { getMigrations: async () => MIGRATIONS };
  const { error } = await new Migrator({ db: handle.db, provider }).migrateTo("0022_pickup_max_distance");
  if (error) throw new Error("migrating to the release before failed", { cause: error });
  await insertBefore(1, ROWS);
  // A point of two carriers that disagree, and one of two that agree.
  await sql`insert into pickup_points (id, name, address, postalcode, city, country, lat, lon, branch, location_info, carrier_info)
    values ('ffff00000000000000000001', 'Both', 'Katu 1', '20780', 'KAARINA', 'FI', 60.4, 22.4, 'fi.posti', null,
      ${JSON.stringify({ fi_posti: { id: "1", type: "PARCELLOCKER" }, fi_matkahuolto: { id: "2", type: "OFFICE" } })}::jsonb),
    ('ffff00000000000000000002', 'Agree', 'Katu 1', '20780', 'KAARINA', 'FI', 60.4, 22.4, 'fi.posti', null,
      ${JSON.stringify({ fi_posti: { id: "1", type: "APT" }, fi_matkahuolto: { id: "2" } })}::jsonb)`.execute(
    handle.db,
  );
}, 120_000);
afterAll(async () => {
  await handle?.close();
});

it("the upgrade sets every stored point's kind from its carrier_info, in every slice", async () => {
  const expand = await migrateToLatest(handle.db);
  expect(expand.applied[0]).toBe("0023_pickup_point_kind");
  // i % 6 over 1..5003: 0 and 3 lockers (833 + 834), 1 and 2 counters (834 + 834), 4 and 5 unknown (834 + 834).
  expect(await kinds()).toEqual([
    ["counter", 1668],
    ["locker", 1668],
    ["unknown", 1669],
  ]);
  const byId = async (id: string) =>
    (await sql<{ kind: string }>`select kind from pickup_points where id = ${id}`.execute(handle.db)).rows[0]!.kind;
  expect(await byId("ffff00000000000000000001")).toBe("unknown");
  expect(await byId("ffff00000000000000000002")).toBe("locker");
  // The second slice (ids past the first 5000): 5001 % 6 = 3, Pakettiautomaatti.
  expect(await byId((5001).toString(16).padStart(24, "0"))).toBe("locker");
});

it("the release before's inserts still work (unknown), this release's import sets the kind; the column refuses other words", async () => {
  await insertBefore(6001, 6001); // 6001 % 6 = 1: POSTOFFICE, stored by the release before as unknown
  const id = (6001).toString(16).padStart(24, "0");
  const stored = async () =>
    (await sql<{ kind: string }>`select kind from pickup_points where id = ${id}`.execute(handle.db)).rows[0]!.kind;
  expect(await stored()).toBe("unknown");
  const again = point({ id, carrier_info: { fi_posti: { id: "6001", type: "POSTOFFICE" } } });
  const { kind: _left, ...record } = again;
  const report = await inTransaction(handle.db, (trx) =>
    importPickupPoints(trx, JSON.stringify([record]), { format: "json" }),
  );
  expect(report).toMatchObject({ updated: 1, errors: [] });
  expect(await stored()).toBe("counter");
  const before = await kinds();
  await expect(sql`update pickup_points set kind = 'box' where id = ${id}`.execute(handle.db)).rejects.toThrow(/check/);
  expect(await kinds()).toEqual(before);
});
