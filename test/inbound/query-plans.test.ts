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
    const first = await listShipments(probe.db, merchant, { limit: 50 });
    expect(first.items).toHaveLength(50);
    const queries = [
      { limit: 50 },
      { limit: 50, cursor: first.next_cursor! },
      { merchants_ref: `GEN-${COUNT - 7}`, limit: 50 },
      { status: ["processed" as const], limit: 100 },
      { status: ["en_route" as const, "initial" as const], limit: 50 },
      { updated_since: new Date(Date.now() - 86_400_000).toISOString(), limit: 50 },
    ];
    for (const query of queries)
      await expectIndexOnly((db) => listShipments(db, merchant, query), JSON.stringify(query));
  });

  it("the reference search finds the one generated shipment", async () => {
    const page = await listShipments(probe.db, merchant, { merchants_ref: `GEN-${COUNT - 7}`, limit: 50 });
    expect(page.items.map((s) => s.id)).toEqual([generatedShipmentId(COUNT - 7)]);
  });
});
