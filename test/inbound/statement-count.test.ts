// How many SQL statements one arrivals request sends inside its transaction (BEGIN, COMMIT and the HTTP
// edge's idempotency record not counted): a guard against a write that reads its shipment again.
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../server/accounts/domain.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { DEMO, seedDemo } from "../../server/demo.ts";
import { createShipment } from "../../server/inbound/announcements.ts";
import { recordArrivals } from "../../server/inbound/warehouse.ts";
import { createTestDatabase } from "../helpers/database.ts";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
const merchant: Principal = { role: "merchant", id: DEMO.merchantId, name: `M-${DEMO.merchantId}` };
const operator: Principal = { role: "operator", id: DEMO.operatorId, name: `W-${DEMO.operatorId}` };

beforeAll(async () => {
  handle = await createTestDatabase();
  await seedDemo(handle.db);
});
afterAll(() => handle?.close());

/** The statements `fn` sends, in order (every query, precompiled or built, passes transformResult). */
async function statementsOf(fn: Parameters<typeof inTransaction>[1]): Promise<string[]> {
  const sent: string[] = [];
  const counter: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      sent.push(args.queryId.queryId);
      return args.result;
    },
  };
  const db = handle.db.withPlugin(counter);
  await inTransaction(db, fn);
  return sent;
}

describe("statements per arrivals request", () => {
  it("counts the first arrival (which moves the shipment to processing) and a later one", async () => {
    const { shipment_id } = await inTransaction(handle.db, (trx) =>
      createShipment(trx, merchant, {
        merchants_ref: "COUNT-1",
        sender_name: "Counter Oy",
        products: [
          { merchants_id: "C-1", name: "One", qty: 5 },
          { merchants_id: "C-2", name: "Two", qty: 5 },
        ],
      }),
    );
    const first = await statementsOf((trx) =>
      recordArrivals(trx, operator, shipment_id, { arrivals: [{ merchants_id: "C-1", change: 2 }] }),
    );
    const later = await statementsOf((trx) =>
      recordArrivals(trx, operator, shipment_id, { arrivals: [{ merchants_id: "C-2", change: 1 }] }),
    );
    expect({ first: first.length, later: later.length }).toEqual({ first: 7, later: 5 });
  });
});
