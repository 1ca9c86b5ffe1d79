// GET shipment's documents kept in memory on the embedded database (server/db/coherent-reads.ts, issue 53): when a
// shipment changes in any way (the merchant's API, the warehouse's, a statement of an upkeep or a migration), the next
// GET answers the new document; a read that raced a change is never kept; on PostgreSQL nothing is kept.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import type { Principal } from "../../server/accounts/domain.ts";
import { CoherentReads } from "../../server/db/coherent-reads.ts";
import { COUNTERS_TABLE, WindowCounter } from "../../server/db/counters.ts";
import { reads, rawAs } from "../../server/db/statement-ways.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { getShipment as readShipment, keptDocuments } from "../../server/inbound/queries.ts";
import { arrive, createShipment, expectError, getShipment, moveTo } from "../helpers/fixtures.ts";
import { useTestAccounts, type TestServer } from "../helpers/server.ts";

type S = components["schemas"];

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
useTestAccounts((s) => ({ srv, m, w } = s));

const embedded = process.env.TEST_DB !== "postgres";
/** The warehouse sees every merchant's shipment: the truth, whoever the test's merchant is. */
const warehouse: Principal = { role: "operator", id: "truth", name: "W-truth" };

/** The document as the database holds it now, read in a transaction (whose reads are never kept). */
const stored = (id: string) => inTransaction(srv.handle.db, (trx) => readShipment(trx, warehouse, id));

/** A GET whose document is kept afterwards (on the embedded database): the change that follows must replace it. */
async function kept(id: string): Promise<S["InboundShipment"]> {
  const doc = await getShipment(m, id);
  expect(await getShipment(m, id)).toEqual(doc);
  expect(keptDocuments(srv.handle.db) > 0).toBe(embedded);
  return doc;
}

describe("When a merchant reads a shipment again after it changed, then the answer is the new document", () => {
  it("keeps the document of a shipment that did not change, on the embedded database only", async () => {
    const id = await createShipment(m);
    const first = await getShipment(m, id);
    expect(await getShipment(m, id)).toEqual(first);
    expect(await getShipment(m, id)).toEqual(await stored(id));
    expect(keptDocuments(srv.handle.db) > 0).toBe(embedded);
  });

  it("after the merchant modified it", async () => {
    const id = await createShipment(m);
    await kept(id);
    const r = await m.POST("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: id } },
      body: { sender_name: "Modified Oy", products: [{ merchants_id: "SKU-1001", qty: 11 }] },
    });
    expect(r.response.status).toBe(200);
    const after = await getShipment(m, id);
    expect(after).toMatchObject({ sender_name: "Modified Oy" });
    expect(after.products[0]!.qty).toBe(11);
    expect(after).toEqual(await stored(id));
  });

  it("after the merchant confirmed it", async () => {
    const id = await createShipment(m);
    await kept(id);
    const r = await m.POST("/inbound_shipments/{shipment_id}/_confirm", { params: { path: { shipment_id: id } } });
    expect(r.response.status).toBe(200);
    expect((await getShipment(m, id)).status).toBe("confirmed");
  });

  it("after the warehouse recorded arrivals, and after the warehouse read it too", async () => {
    const id = await createShipment(m);
    await kept(id);
    expect(await getShipment(w, id)).toEqual(await getShipment(m, id));
    expect((await arrive(w, id, [{ merchants_id: "SKU-1001", change: 3 }])).response.status).toBe(200);
    const after = await getShipment(m, id);
    expect(after.status).toBe("processing");
    expect(after.products[0]).toMatchObject({ arrivedQty: 3, arrivals: [{ change: 3 }] });
    expect(await getShipment(w, id)).toEqual(after);
    expect((await arrive(w, id, [{ merchants_id: "SKU-1001", change: 2 }])).response.status).toBe(200);
    expect((await getShipment(m, id)).products[0]!.arrivedQty).toBe(5);
    expect(await getShipment(m, id)).toEqual(await stored(id));
  });

  it("after the warehouse cancelled it, and after a refused change (rolled back) it is still the same", async () => {
    const id = await createShipment(m);
    await kept(id);
    expect((await moveTo(w, id, { status: "cancelled" })).response.status).toBe(200);
    const cancelled = await getShipment(m, id);
    expect(cancelled.status).toBe("cancelled");
    expectError(await arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }]), 409, "invalid_state");
    expect(await getShipment(m, id)).toEqual(cancelled);
    expect(cancelled).toEqual(await stored(id));
  });

  it("after the merchant deleted it", async () => {
    const id = await createShipment(m);
    await kept(id);
    const r = await m.DELETE("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
    expect(r.response.status).toBe(200);
    expect((await getShipment(m, id)).status).toBe("deleted");
  });

  it("after a statement of an upkeep or a migration: raw SQL of no said way, a said write, and in a transaction", async () => {
    const db = srv.handle.db;
    const id = await createShipment(m);
    await kept(id);
    await sql`update inbound_shipments set sender_name = 'Upkeep Oy' where id = ${id}`.execute(db);
    expect((await getShipment(m, id)).sender_name).toBe("Upkeep Oy");
    await db.executeQuery(
      rawAs("write", "update inbound_shipments set sender_name = 'Written Oy' where id = $1", [id]),
    );
    expect((await getShipment(m, id)).sender_name).toBe("Written Oy");
    await db.transaction().execute(async (trx) => {
      await sql`update inbound_lines set qty = 77 where shipment_id = ${id}`.execute(trx);
      await sql`update inbound_shipments set merchants_ref = 'MIGRATED' where id = ${id}`
        .withPlugin(reads)
        .execute(trx);
    });
    const after = await getShipment(m, id);
    expect(after.merchants_ref).toBe("MIGRATED");
    expect(after.products.map((l) => l.qty)).toEqual([77, 77]);
    expect(after).toEqual(await stored(id));
  });

  it("under concurrent GETs: every change's answer is followed by GETs that show it", async () => {
    const id = await createShipment(m);
    await kept(id);
    for (let qty = 1; qty <= 8; qty++) {
      const gets = Array.from({ length: 10 }, () => getShipment(m, id));
      const change = m.POST("/inbound_shipments/{shipment_id}", {
        params: { path: { shipment_id: id } },
        body: { products: [{ merchants_id: "SKU-1002", qty }] },
      });
      const more = Array.from({ length: 10 }, () => getShipment(m, id));
      expect((await change).response.status).toBe(200);
      const after = await Promise.all(Array.from({ length: 5 }, () => getShipment(m, id)));
      for (const doc of after) expect(doc.products[1]!.qty).toBe(qty);
      await Promise.all([...gets, ...more]);
    }
  });
});

describe("Kept reads (coherent-reads.ts)", () => {
  const senderOf = async (id: string) =>
    (
      await sql<{ sender_name: string }>`select sender_name from inbound_shipments where id = ${id}`
        .withPlugin(reads)
        .execute(srv.handle.db)
    ).rows[0]!.sender_name;

  it("does not keep a read that a change completed during, whether the change ran before or after it", async () => {
    const db = srv.handle.db;
    const id = await createShipment(m);
    const kept = new CoherentReads<string>(10);
    let loads = 0;
    // The change runs after the read: the read saw the old name.
    const old = await kept.read(db, id, async () => {
      loads++;
      const name = await senderOf(id);
      await sql`update inbound_shipments set sender_name = 'Raced Oy' where id = ${id}`.execute(db);
      return name;
    });
    expect(old).toBe("Acme Supplies Oy");
    expect(kept.size(db)).toBe(0);
    // The change is sent before the read and completes after it was asked for.
    const change = sql`update inbound_shipments set sender_name = 'Raced Again Oy' where id = ${id}`.execute(db);
    const raced = await kept.read(db, id, async () => {
      loads++;
      const name = await senderOf(id);
      await change;
      return name;
    });
    // The embedded session runs statements in the order sent; PostgreSQL may run the read first on another connection.
    expect(raced).toBe(embedded ? "Raced Again Oy" : raced);
    expect(kept.size(db)).toBe(0);
    const load = async () => {
      loads++;
      return senderOf(id);
    };
    expect(await kept.read(db, id, load)).toBe("Raced Again Oy");
    expect(await kept.read(db, id, load)).toBe("Raced Again Oy");
    expect(loads).toBe(embedded ? 3 : 4);
    expect(kept.size(db)).toBe(embedded ? 1 : 0);
  });

  it("keeps what it keeps across the limits' counter writes, and not across the same table's other writes", async () => {
    const db = srv.handle.db;
    const kept = new CoherentReads<number>(10);
    let loads = 0;
    const read = () => kept.read(db, "k", () => Promise.resolve(++loads));
    await read();
    await new WindowCounter(db, "kept-documents-test", 100, 60).add("someone", 3);
    await read();
    expect(loads).toBe(embedded ? 1 : 2);
    await db.executeQuery(rawAs("write", `delete from ${COUNTERS_TABLE} where key = $1`, ["nobody"]));
    await read();
    expect(loads).toBe(embedded ? 2 : 3);
  });

  it("never keeps a read made in a transaction", async () => {
    const id = await createShipment(m);
    const kept = new CoherentReads<string>(10);
    await inTransaction(srv.handle.db, (trx) => kept.read(trx, id, () => Promise.resolve("in a transaction")));
    expect(kept.size(srv.handle.db)).toBe(0);
  });

  it("keeps at most its bound, the least recently used out first, and hands out frozen values", async () => {
    const db = srv.handle.db;
    const kept = new CoherentReads<{ n: number[] }>(3);
    let loads = 0;
    const read = (key: string) => kept.read(db, key, () => Promise.resolve({ n: [++loads] }));
    for (const key of ["a", "b", "c"]) await read(key);
    await read("a");
    await read("d");
    expect(kept.size(db)).toBe(embedded ? 3 : 0);
    const again = { a: await read("a"), b: await read("b") };
    if (embedded) {
      expect(again.a.n).toEqual([1]); // kept, used again before "d" came
      expect(again.b.n).toEqual([5]); // the least recently used when "d" came: read again
      expect(Object.isFrozen(again.a) && Object.isFrozen(again.a.n)).toBe(true);
    }
  });
});
