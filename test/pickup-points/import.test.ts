// Directory imports into the database: all or nothing, upserts, re-imports; and the CLI commands as an operator runs them.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import type { components } from "../../client/index.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { sql } from "kysely";
import { IMPORT_SLICE, importPickupPoints, importPostalCodes } from "../../server/pickup-points/imports.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { cli } from "../process/helpers.ts";
import { geonames, point } from "../helpers/shipping.ts";

type S = components["schemas"];

let handle: DatabaseHandle & { url?: string };
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const points = (db = handle.db) =>
  db
    .selectFrom("pickup_points")
    .select(["id", "name", "lat", "lon", "branch", "carrier_info", "kind"])
    .orderBy("id")
    .execute();
const codes = (db = handle.db) =>
  db
    .selectFrom("postal_code_locations")
    .select(["country", "postalcode", "place_name", "lat", "lon"])
    .orderBy("postalcode")
    .execute();
const importJson = (list: unknown[]) =>
  inTransaction(handle.db, (trx) => importPickupPoints(trx, JSON.stringify(list), { fileName: "points.json" }));

describe("importing pickup points", () => {
  const a = point({ name: "A", branch: "fi.k-market" });
  const b = point({ name: "B", coordinates: [61.5, 23.7], location_info: "Mon-Sun 0-24" });

  it("given the database, a large file commits in slices (no transaction held for the whole import); given a transaction, in it", async () => {
    const many = Array.from({ length: 2 * IMPORT_SLICE + 1 }, (_, i) => point({ name: `Many ${i}` }));
    const report = await importPickupPoints(handle.db, JSON.stringify(many), { fileName: "many.json" });
    expect(report).toMatchObject({ read: many.length, inserted: many.length, errors: [] });
    // Each transaction leaves its id in the rows it wrote (xmin): three slices, three transactions.
    const transactions = async (list: typeof many) =>
      (
        await sql<{ n: string }>`select count(distinct xmin::text) as n from pickup_points
          where id in (${sql.join(list.map((p) => p.id))})`.execute(handle.db)
      ).rows[0]!.n;
    expect(Number(await transactions(many))).toBe(3);
    const renamed = many.map((p) => ({ ...p, name: `${p.name} again` }));
    expect(await importJson(renamed)).toMatchObject({ read: many.length, updated: many.length });
    expect(Number(await transactions(renamed))).toBe(1);
    await handle.db
      .deleteFrom("pickup_points")
      .where(
        "id",
        "in",
        many.map((p) => p.id),
      )
      .execute();
  });

  it("inserts valid records, then re-importing reports them unchanged and changed ones updated (upsert by id)", async () => {
    expect(await importJson([a, b])).toMatchObject({ read: 2, inserted: 2, updated: 0, unchanged: 0, errors: [] });
    expect((await points()).map((p) => [p.id, p.name, p.branch])).toEqual([
      [a.id, "A", "fi.k-market"],
      [b.id, "B", "fi.posti"],
    ]);
    expect(await importJson([a, b])).toMatchObject({ read: 2, inserted: 0, updated: 0, unchanged: 2 });
    const c = point({ name: "C" });
    expect(
      await importJson([{ ...a, name: "A2", carrier_info: { fi_posti: { id: "9", type: "PARCELLOCKER" } } }, b, c]),
    ).toMatchObject({ read: 3, inserted: 1, updated: 1, unchanged: 1 });
    expect((await points()).find((p) => p.id === a.id)).toMatchObject({
      name: "A2",
      carrier_info: { fi_posti: { id: "9", type: "PARCELLOCKER" } },
    });
  });

  it("stores each point's kind: the file's own when given, else its carriers' types'; a changed kind is an update", async () => {
    const withoutKind = (p: S["PickupPoint"]) => {
      const { kind: _left, ...record } = p;
      return record;
    };
    const locker = withoutKind(
      point({ name: "Locker", carrier_info: { fi_posti: { id: "1", type: "Pakettiautomaatti" } } }),
    );
    const counter = withoutKind(
      point({ name: "Counter", carrier_info: { fi_posti: { id: "2", type: "SERVICE_POINT" } } }),
    );
    const none = withoutKind(point({ name: "None", carrier_info: { fi_matkahuolto: { id: "3" } } }));
    const told = point({ name: "Told", kind: "counter", carrier_info: { fi_matkahuolto: { id: "4" } } });
    expect(await importJson([locker, counter, none, told])).toMatchObject({ inserted: 4, errors: [] });
    const kindOf = async (id: string) => (await points()).find((p) => p.id === id)!.kind;
    expect([await kindOf(locker.id), await kindOf(counter.id), await kindOf(none.id), await kindOf(told.id)]).toEqual([
      "locker",
      "counter",
      "unknown",
      "counter",
    ]);
    expect(await importJson([{ ...none, kind: "locker" }, told])).toMatchObject({ updated: 1, unchanged: 1 });
    expect(await kindOf(none.id)).toBe("locker");
  });

  it("refuses a kind the spec does not name, by record and field, storing nothing", async () => {
    const before = await points();
    const r = await importJson([point({ name: "fine" }), { ...a, kind: "box" }, { ...b, kind: null }]);
    expect(r.errors).toEqual([
      { record: 1, field: "kind", message: 'must be one of "locker", "counter", "unknown"' },
      { record: 2, field: "kind", message: 'must be string; must be one of "locker", "counter", "unknown"' },
    ]);
    expect(r).toMatchObject({ inserted: 0, updated: 0 });
    expect(await points()).toEqual(before);
  });

  it("imports nothing when any record is bad, reporting each by record number and field", async () => {
    const before = await points();
    const r = await importJson([
      point({ name: "new, fine" }),
      { ...a, name: "changed" },
      { ...b, coordinates: [91, 23] },
      { ...point(), postalcode: "123" },
    ]);
    expect(r.errors.map((e) => [e.record, e.field])).toEqual([
      [2, "coordinates/0"],
      [3, "postalcode"],
    ]);
    expect(r).toMatchObject({ inserted: 0, updated: 0 });
    expect(await points()).toEqual(before);
  });

  it("names the record and field of text the database cannot store (NUL, lone surrogates, in nested fields too), storing nothing", async () => {
    const before = await points();
    const r = await importJson([
      point({ name: "fine" }),
      point({ name: "Kiosk\u0000" }),
      point({ location_info: "Mon\uD800" }),
      point({ carrier_info: { fi_posti: { id: "1\u00002" } } }),
    ]);
    expect(r.errors.map((e) => [e.record, e.field])).toEqual([
      [1, "name"],
      [2, "location_info"],
      [3, "carrier_info/fi_posti/id"],
    ]);
    expect(r.errors[0]!.message).toContain("NUL");
    expect(JSON.stringify(r.errors)).not.toMatch(/invalid byte sequence|22P05|22021/);
    expect(await points()).toEqual(before);
    const codesBefore = await codes();
    const pc = await inTransaction(handle.db, (trx) =>
      importPostalCodes(
        trx,
        [geonames("FI", "20100", 60.45, 22.27), geonames("FI", "20200", 60.4, 22.2, "Tur\u0000ku")].join("\n"),
      ),
    );
    expect(pc.errors.map((e) => [e.line, e.field])).toEqual([[2, "line"]]);
    expect(await codes()).toEqual(codesBefore);
  });

  it("reads CSV with the same columns, reporting bad rows by line", async () => {
    const header = "id,name,address,postalcode,city,country,lat,lon,branch,location_info,carrier_info";
    const d = point({ name: "CSV point" });
    const row = (p: S["PickupPoint"]) =>
      [
        p.id,
        p.name,
        p.address,
        p.postalcode,
        p.city,
        p.country,
        ...p.coordinates,
        p.branch,
        "",
        `"${JSON.stringify(p.carrier_info).replace(/"/g, '""')}"`,
      ].join(",");
    const bad = await inTransaction(handle.db, (trx) =>
      importPickupPoints(trx, [header, row(d), row({ ...point(), branch: "Posti" })].join("\n"), { fileName: "p.csv" }),
    );
    expect(bad.errors.map((e) => [e.line, e.field])).toEqual([[3, "branch"]]);
    expect((await points()).map((p) => p.id)).not.toContain(d.id);
    const good = await inTransaction(handle.db, (trx) =>
      importPickupPoints(trx, [header, row(d)].join("\n"), { fileName: "p.csv" }),
    );
    expect(good).toMatchObject({ read: 1, inserted: 1, errors: [] });
    expect((await points()).find((p) => p.id === d.id)).toMatchObject({
      name: "CSV point",
      lat: d.coordinates[0],
      lon: d.coordinates[1],
    });
  });
});

describe("importing postal codes (GeoNames)", () => {
  it("upserts by country and postal code, all or nothing, bad lines by number", async () => {
    const file = [
      geonames("FI", "20780", 60.407, 22.369, "Kaarina"),
      geonames("FI", "00100", 60.17, 24.93, "Helsinki"),
    ].join("\n");
    expect(await inTransaction(handle.db, (trx) => importPostalCodes(trx, file))).toMatchObject({
      read: 2,
      inserted: 2,
      updated: 0,
      unchanged: 0,
    });
    const moved = [
      geonames("FI", "20780", 60.408, 22.37, "Kaarina"),
      geonames("FI", "00100", 60.17, 24.93, "Helsinki"),
      geonames("SE", "111 22", 59.33, 18.06, "Stockholm"),
    ].join("\n");
    expect(await inTransaction(handle.db, (trx) => importPostalCodes(trx, moved))).toMatchObject({
      read: 3,
      inserted: 1,
      updated: 1,
      unchanged: 1,
    });
    const before = await codes();
    const bad = await inTransaction(handle.db, (trx) =>
      importPostalCodes(
        trx,
        [geonames("FI", "20100", 60.45, 22.27), "FI\t2010\tX", geonames("FI", "20200", 95, 22)].join("\n"),
      ),
    );
    expect(bad.errors.map((e) => [e.line, e.field])).toEqual([
      [2, "line"],
      [3, "latitude"],
    ]);
    expect(await codes()).toEqual(before);
    expect(before.find((c) => c.postalcode === "20780")).toMatchObject({ lat: 60.408, lon: 22.37 });
  });
});

describe("npm run cli -- pickup-points import / postal-codes import", () => {
  it("imports files, prints what it did, and refuses a bad file naming its records, storing nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "logistics-import-"));
    try {
      // PGlite belongs to one process: the CLI gets its own copy of the migrated template, opened here afterwards.
      const env: Record<string, string> = handle.url
        ? { DATABASE_URL: handle.url }
        : { DATABASE_URL: "", PGLITE_DIR: path.join(dir, "db") };
      if (!handle.url) cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
      const p1 = point({ name: "CLI one" });
      const p2 = point({ name: "CLI two" });
      writeFileSync(path.join(dir, "points.json"), JSON.stringify([p1, p2]));
      writeFileSync(
        path.join(dir, "bad.json"),
        JSON.stringify([
          p1,
          { ...p2, id: "XYZ" },
          { ...p2, coordinates: [60, 200] },
          { ...point({ name: "CLI three" }), kind: "Locker" },
        ]),
      );
      writeFileSync(path.join(dir, "codes.txt"), geonames("FI", "21500", 60.425, 22.515, "Piikkiö") + "\n");

      const ok = await cli(["pickup-points", "import", path.join(dir, "points.json")], env);
      expect(ok.code, ok.output).toBe(0);
      expect(ok.output).toContain("2 pickup points: 2 new, 0 updated, 0 unchanged.");
      const bad = await cli(["pickup-points", "import", path.join(dir, "bad.json")], env);
      expect(bad.code).toBe(1);
      expect(bad.output).toContain("record 1, id:");
      expect(bad.output).toContain("record 2, coordinates/1:");
      expect(bad.output).toContain('record 3, kind: must be one of "locker", "counter", "unknown"');
      expect(bad.output).toContain("3 problems; nothing was imported.");
      const pc = await cli(["postal-codes", "import", path.join(dir, "codes.txt")], env);
      expect(pc.code, pc.output).toBe(0);
      expect(pc.output).toContain("1 postal codes: 1 new, 0 updated, 0 unchanged.");

      const check = handle.url ? handle : await openDatabase({ pgliteDir: path.join(dir, "db") });
      try {
        expect(
          (await points(check.db))
            .filter((p) => p.name.startsWith("CLI"))
            .map((p) => p.id)
            .sort(),
        ).toEqual([p1.id, p2.id].sort());
        expect((await codes(check.db)).map((c) => c.postalcode)).toContain("21500");
      } finally {
        if (check !== handle) await check.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // three CLI processes, each opening the embedded database: slow on a busy machine
});
