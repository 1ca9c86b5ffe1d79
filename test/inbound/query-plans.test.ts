// Reads stay flat as a merchant's shipments grow: on 100,000 generated shipments (300,000 lines), every
// statement that reading one shipment or a page of the list sends is planned without a sequential scan of
// the tables that grow. The statements are the ones the domain code really sends (captured by Kysely's log).
// PostgreSQL only: its planner decides what production does. `npm run bench -- scale` checks 10^6 as well.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../server/accounts/domain.ts";
import { seedDemo, DEMO } from "../../server/demo.ts";
import { getShipment, listShipments } from "../../server/inbound/queries.ts";
import { generatedShipmentId, generateShipments } from "../../tools/generate-shipments.ts";
import { planProbe, type PlanProbe } from "../../tools/query-plans.ts";
import { createTestDatabase } from "../helpers/database.ts";

const COUNT = 100_000;

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let probe: PlanProbe;
const merchant: Principal = { role: "merchant", id: DEMO.merchantId, name: `M-${DEMO.merchantId}` };

beforeAll(async () => {
  handle = await createTestDatabase();
  await seedDemo(handle.db);
  await generateShipments(handle.db, { merchantId: DEMO.merchantId, count: COUNT });
  probe = planProbe(handle.url!);
}, 120_000);
afterAll(async () => {
  await probe?.close();
  await handle?.close();
});

async function expectIndexOnly(read: Parameters<PlanProbe["seqScansOf"]>[0], what: string) {
  const { statements, scans } = await probe.seqScansOf(read);
  expect(statements, what).toBeGreaterThan(0);
  expect(scans, what).toEqual([]);
}

describe(`query plans on ${COUNT.toLocaleString("en")} shipments (PostgreSQL)`, () => {
  it("reading one shipment uses the indexes", async () => {
    const id = generatedShipmentId(COUNT / 2);
    await expectIndexOnly(async (db) => expect((await getShipment(db, merchant, id)).id).toBe(id), "get");
  });

  it("the list's first page, next page, reference search, status filter and updated_since use the indexes", async () => {
    const first = await listShipments(probe.db, merchant, { limit: 50, sort: "updated_at" });
    expect(first.items).toHaveLength(50);
    const queries = [
      { limit: 50 },
      { limit: 50, cursor: first.next_cursor! },
      { merchants_ref: `GEN-${COUNT - 7}`, limit: 50 },
      { status: ["processed" as const], limit: 100 },
      { status: ["en_route" as const, "initial" as const], limit: 50 },
      { updated_since: new Date(Date.now() - 86_400_000).toISOString(), limit: 50 },
      // A search: common (walks the order's index) or rare (the trigram indexes). One or two characters have no
      // trigram: a rare one reads the merchant's rows, here the whole table, which the planner rightly scans.
      { q: "GEN-99", limit: 50 },
      { q: "gen-9999", limit: 50 },
      { q: "nothing like this", limit: 50 },
    ];
    for (const query of queries)
      await expectIndexOnly(
        (db) => listShipments(db, merchant, { ...query, sort: "updated_at" }),
        JSON.stringify(query),
      );
  });

  it("newest first (sort=-created_at), its next page, a status filter and searches use the indexes", async () => {
    const first = await listShipments(probe.db, merchant, { limit: 50, sort: "-created_at" });
    expect(first.items).toHaveLength(50);
    const queries = [
      { limit: 50 },
      { limit: 50, cursor: first.next_cursor! },
      { status: ["processed" as const], limit: 50 },
      { q: "supplier 5", limit: 50 },
      { q: "gen-9999", limit: 50 },
      { q: "Nobody Oy", status: ["initial" as const], limit: 50 },
    ];
    for (const query of queries)
      await expectIndexOnly(
        (db) => listShipments(db, merchant, { ...query, sort: "-created_at" }),
        JSON.stringify(query),
      );
  });

  it("newest first lists the latest announcement first; a rare search finds its few shipments", async () => {
    const newest = await listShipments(probe.db, merchant, { limit: 3, sort: "-created_at" });
    const created = newest.items.map((s) => s.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const found = await listShipments(probe.db, merchant, { q: `gen-${COUNT - 7}`, limit: 50, sort: "-created_at" });
    expect(found.items.map((s) => s.merchants_ref)).toEqual([`GEN-${COUNT - 7}`]);
  });

  it("the reference search finds the one generated shipment", async () => {
    const page = await listShipments(probe.db, merchant, {
      merchants_ref: `GEN-${COUNT - 7}`,
      limit: 50,
      sort: "updated_at",
    });
    expect(page.items.map((s) => s.id)).toEqual([generatedShipmentId(COUNT - 7)]);
  });
});
