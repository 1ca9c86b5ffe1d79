// Creates without an Idempotency-Key that wait together (a write batch on PostgreSQL, a round of the embedded
// session) are written by one statement (server/db/write-merges.ts, CREATE_SHIPMENTS in server/inbound/db.ts). What
// must hold: each caller gets its own shipment, with its own lines and history, as if written alone; each product once,
// with what the creates in order would have left; one create the database refuses costs the others nothing (it gets
// its own error, they are stored once); a create whose product is late is not held back by the others, nor they by it.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { InboundShipmentCreate } from "../../generated/api.ts";
import type { Principal } from "../../server/accounts/domain.ts";
import { mergeCatalogueValues } from "../../server/catalogue/db.ts";
import { mergeCounts } from "../../server/db/write-merges.ts";
import { DEMO, seedDemo } from "../../server/demo.ts";
import { createShipment } from "../../server/inbound/announcements.ts";
import { findShipment } from "../../server/inbound/db.ts";
import { newId } from "../../server/shared/ids.ts";
import { createTestDatabase } from "../helpers/database.ts";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
// Through a transaction-mode pooler (npm run test:pgbouncer) a statement outside a transaction takes a pool
// connection of its own (server/db/pool-clients.ts): nothing is batched, so nothing is merged. Every create must still
// get its own answer and rows; the counts then say that each went alone.
const merging = !inject("pgbouncerPort");
const merchant: Principal = { role: "merchant", id: DEMO.merchantId, name: `M-${DEMO.merchantId}` };
const other: Principal = { role: "merchant", id: "other.example.com", name: "M-other.example.com" };
const nobody: Principal = { role: "merchant", id: "nobody.example.com", name: "M-nobody.example.com" };

beforeAll(async () => {
  handle = await createTestDatabase();
  await seedDemo(handle.db);
  await handle.db.insertInto("merchants").values({ id: other.id, secret_hash: "x" }).execute();
});
afterAll(() => handle?.close());

const input = (ref: string, products: InboundShipmentCreate["products"]): InboundShipmentCreate => ({
  merchants_ref: ref,
  sender_name: `Sender of ${ref}`,
  products,
});

const products = async (merchantId: string) =>
  handle.db
    .selectFrom("products")
    .select(["merchants_id", "name", "gtin"])
    .where("merchant_id", "=", merchantId)
    .orderBy("merchants_id")
    .execute();

/** The transactions and statements that wrote these shipments: (xmin, cmin) is one statement. */
async function statementsOf(ids: string[]): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(distinct (xmin::text, cmin::text))::int as n
    from inbound_shipments where id = any(${ids})`.execute(handle.db);
  return rows[0]!.n;
}

describe("creates written together", () => {
  it("each get their own shipment, lines and history; each product once; fewer statements than creates", async () => {
    const before = { ...mergeCounts };
    const creates = Array.from({ length: 24 }, (_, i) =>
      input(`MERGE-${i}`, [
        { merchants_id: "SHARED-1", name: "Shared one", gtin: "", qty: i + 1 },
        { merchants_id: "SHARED-2", name: "Shared two", qty: 2, purchasePrice: 1.5 },
        { merchants_id: `OWN-${i}`, name: `Own ${i}`, gtin: "4006381333931", qty: 3 },
      ]),
    );
    const principals = creates.map((_, i) => (i % 3 === 2 ? other : merchant));
    const results = await Promise.all(creates.map((c, i) => createShipment(handle.db, principals[i]!, c)));
    const ids = results.map((r) => r.shipment_id);
    expect(new Set(ids).size).toBe(24);
    expect(results.every((r) => r.success && r.status === "initial")).toBe(true);

    for (const [i, id] of ids.entries()) {
      const s = (await findShipment(handle.db, principals[i]!, id))!;
      expect(s.row).toMatchObject({
        merchant_id: principals[i]!.id,
        merchants_ref: `MERGE-${i}`,
        sender_name: `Sender of MERGE-${i}`,
        status: "initial",
        expected_at_wh: null,
        closing: false,
      });
      expect(s.lines.map((l) => [l.position, l.merchants_id, l.name, l.gtin, l.qty, l.purchase_price_cents])).toEqual([
        [0, "SHARED-1", "Shared one", "", i + 1, null],
        [1, "SHARED-2", "Shared two", "", 2, 150],
        [2, `OWN-${i}`, `Own ${i}`, "4006381333931", 3, null],
      ]);
      const history = await handle.db
        .selectFrom("inbound_status_history")
        .select(["from_status", "to_status", "actor"])
        .where("shipment_id", "=", id)
        .execute();
      expect(history).toEqual([{ from_status: null, to_status: "initial", actor: principals[i]!.name }]);
    }
    // One product per merchant and code, each merchant's own.
    const mine = await products(merchant.id);
    expect(mine.filter((p) => p.merchants_id.startsWith("SHARED")).length).toBe(2);
    expect(mine.filter((p) => p.merchants_id.startsWith("OWN")).length).toBe(16);
    const theirs = await products(other.id);
    expect(theirs.map((p) => p.merchants_id).sort()).toEqual(
      ["SHARED-1", "SHARED-2", ...ids.flatMap((_, i) => (i % 3 === 2 ? [`OWN-${i}`] : []))].sort(),
    );
    // Written together: fewer statements than creates, and the counts say they were merged.
    if (merging) {
      expect(await statementsOf(ids)).toBeLessThan(24);
      expect(mergeCounts.statements).toBeGreaterThan(before.statements);
    } else {
      expect(await statementsOf(ids)).toBe(24);
      expect(mergeCounts.statements).toBe(before.statements);
    }
    expect(mergeCounts.refused).toBe(before.refused);
  });

  it("one the database refuses gets its own error; the others are stored, each once; nothing of it is", async () => {
    const before = { ...mergeCounts };
    // A merchant that does not exist: its products break their foreign key, which fails the merged statement.
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createShipment(
          handle.db,
          i === 5 ? nobody : merchant,
          input(`REFUSE-${i}`, [{ merchants_id: `REFUSE-SKU-${i % 4}`, name: "Refused?", qty: 1 }]),
        ).then(
          (r) => r.shipment_id,
          (e: unknown) => e as { code?: string },
        ),
      ),
    );
    const failed = outcomes.filter((o) => typeof o !== "string");
    expect(failed.map((f) => f.code)).toEqual(["23503"]);
    expect(typeof outcomes[5]).toBe("object");
    const stored = await handle.db
      .selectFrom("inbound_shipments")
      .select(["id", "merchants_ref"])
      .where("merchants_ref", "like", "REFUSE-%")
      .orderBy("merchants_ref")
      .execute();
    expect(stored.map((s) => s.merchants_ref).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `REFUSE-${i}`)
        .filter((r) => r !== "REFUSE-5")
        .sort(),
    );
    expect(stored.map((s) => s.id).sort()).toEqual(outcomes.filter((o): o is string => typeof o === "string").sort());
    expect(await products(nobody.id)).toEqual([]);
    expect((await products(merchant.id)).filter((p) => p.merchants_id.startsWith("REFUSE-SKU")).length).toBe(4);
    // The refusal came from a merged statement (else this test proves nothing of the merged path).
    if (merging) expect(mergeCounts.refused).toBeGreaterThan(before.refused);
    else expect(mergeCounts.refused).toBe(before.refused);
  });
});

// PostgreSQL only: the embedded database runs one transaction at a time, so no product is added meanwhile there.
describe.runIf(process.env.TEST_DB === "postgres")(
  "a product added by another request while merged creates run",
  () => {
    it("holds back only the create that names it, which runs again and names that product", async () => {
      const before = { ...mergeCounts };
      const theirs = newId(Date.now());
      let outcomes: Promise<string[]> | undefined;
      await handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("products")
          .values({ id: theirs, merchant_id: merchant.id, merchants_id: "LATE-1", name: "Added elsewhere", gtin: "" })
          .execute();
        outcomes = Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            createShipment(
              handle.db,
              merchant,
              input(`LATE-REF-${i}`, [
                { merchants_id: i === 3 ? "LATE-1" : `NOT-LATE-${i}`, name: `Mine ${i}`, qty: 1 },
              ]),
            ).then((r) => r.shipment_id),
          ),
        );
        await untilSomeoneWaits();
      });
      const ids = await outcomes!;
      if (merging) expect(mergeCounts.statements).toBeGreaterThan(before.statements);
      const late = (await findShipment(handle.db, merchant, ids[3]!))!;
      expect(late.lines.map((l) => [l.product_id, l.name])).toEqual([[theirs, "Mine 3"]]);
      expect((await products(merchant.id)).filter((p) => p.merchants_id === "LATE-1").length).toBe(1);
      // The others were written by the statement that waited; the late one by a statement after it.
      const others = ids.filter((_, i) => i !== 3);
      for (const [i, id] of others.entries())
        expect((await findShipment(handle.db, merchant, id))!.row.merchants_ref).toBe(`LATE-REF-${i < 3 ? i : i + 1}`);
      // Alone through a pooler, each create is a statement of its own.
      expect(await statementsOf(others)).toBe(merging ? 1 : 5);
      expect(await statementsOf(ids)).toBe(merging ? 2 : 6);
    });
  },
);

/** Until a statement of this database waits for a row lock. */
async function untilSomeoneWaits(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(handle.db);
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no create waited for the other insert");
}

describe("mergeCatalogueValues", () => {
  it("names each product once, with the last name and gtin given, the first new id and the last time", () => {
    const t1 = new Date("2026-11-29T10:00:00Z");
    const t2 = new Date("2026-11-29T10:00:01Z");
    const t3 = new Date("2026-11-29T10:00:02Z");
    const merged = mergeCatalogueValues([
      [
        ["id-a1", "id-b1"],
        ["m1", "m1"],
        ["A", "B"],
        ["A first", null],
        ["", "00000000"],
        [t1, t1],
      ],
      [["id-a2"], ["m2"], ["A"], ["A of m2"], [null], [t2]],
      [
        ["id-b3", "id-a3"],
        ["m1", "m1"],
        ["B", "A"],
        ["B named", null],
        [null, "96385074"],
        [t3, t3],
      ],
    ]);
    expect(merged).toEqual([
      ["id-a1", "id-b1", "id-a2"],
      ["m1", "m1", "m2"],
      ["A", "B", "A"],
      ["A first", "B named", "A of m2"],
      ["96385074", "00000000", null],
      [t3, t3, t2],
    ]);
  });
});
