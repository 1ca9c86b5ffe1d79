// A create is one statement that also adds its new products to the catalogue (catalogueCtes). A product that
// another request adds while that statement runs is neither added nor seen by it (its snapshot is older): the
// create then writes nothing and runs the statement again, and its line names that product. PostgreSQL only: the
// embedded database runs one transaction at a time, so nothing is added meanwhile there.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { newId } from "../../server/shared/ids.ts";
import { announcement, createShipment, getShipment } from "../helpers/fixtures.ts";
import { useTestAccounts, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
let m: LogisticsClient;
useTestAccounts((s) => ({ srv, m } = s));

/** Until a statement of this database waits for a row lock (the create, behind the open insert). */
async function untilSomeoneWaits(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(srv.handle.db);
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the create never waited for the other insert");
}

describe("a product added by another request while a create runs", () => {
  // Without a key the create's statement commits by itself; with one it runs in the key's transaction.
  it.each([
    ["without an Idempotency-Key", undefined, "A"],
    ["with an Idempotency-Key", "late-product-key", "B"],
  ])(
    "%s: is the one the create's line names; the create's other new product is added; one product per code",
    async (_, key, tag) => {
      const first = await createShipment(m, announcement({ products: [{ merchants_id: `SKU-WARM-${tag}`, qty: 1 }] }));
      const { merchant_id } = await srv.handle.db
        .selectFrom("inbound_shipments")
        .select("merchant_id")
        .where("id", "=", first)
        .executeTakeFirstOrThrow();
      const now = new Date();
      const theirs = newId(now.getTime());
      const create = () =>
        m.POST("/inbound_shipments/_create", {
          ...(key && { params: { header: { "Idempotency-Key": key } } }),
          body: announcement({
            merchants_ref: `LATE-${tag}`,
            products: [
              { merchants_id: `SKU-LATE-${tag}`, qty: 3 },
              { merchants_id: `SKU-FRESH-${tag}`, name: "Fresh", gtin: "", qty: 4 },
            ],
          }),
        });
      let created: ReturnType<typeof create> | undefined;
      await srv.handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("products")
          .values({
            id: theirs,
            merchant_id,
            merchants_id: `SKU-LATE-${tag}`,
            name: "Added elsewhere",
            gtin: "",
            created_at: now,
            updated_at: now,
          })
          .execute();
        created = create();
        await untilSomeoneWaits();
      });
      const r = await created!;
      expect(r.response.status).toBe(201);
      const s = await getShipment(m, r.data!.shipment_id);
      expect(s.products.map((l) => [l.product.merchants_id, l.product.id === theirs, l.product.name, l.qty])).toEqual([
        [`SKU-LATE-${tag}`, true, "Added elsewhere", 3],
        [`SKU-FRESH-${tag}`, false, "Fresh", 4],
      ]);
      const rows = await srv.handle.db
        .selectFrom("products")
        .select(["merchants_id"])
        .where("merchant_id", "=", merchant_id)
        .where("merchants_id", "in", [`SKU-LATE-${tag}`, `SKU-FRESH-${tag}`])
        .execute();
      expect(rows.map((p) => p.merchants_id).sort()).toEqual([`SKU-FRESH-${tag}`, `SKU-LATE-${tag}`]);
    },
  );
});
