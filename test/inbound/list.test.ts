// Listing: filters and a stable cursor, the polling fallback to webhooks.
import { describe, expect, it } from "vitest";
import type { LogisticsClient, operations } from "../../client/index.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { announcement, createShipment, expectError } from "../helpers/fixtures.ts";

type Query = NonNullable<operations["listInboundShipments"]["parameters"]["query"]>;

let srv: TestServer;
/** The file's merchant and its five shipments, which no test changes: a test that changes some makes its own. */
let m: LogisticsClient;
let ids: string[];

/** A merchant of its own with five shipments, oldest first (two of them PO-ODD). */
async function shipments(): Promise<{ m: LogisticsClient; ids: string[] }> {
  const m = await srv.merchant();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(await createShipment(m, announcement({ merchants_ref: i % 2 ? "PO-ODD" : `PO-${i}` })));
    await new Promise((r) => setTimeout(r, 5)); // distinct updated_at for a readable order
  }
  return { m, ids };
}

useTestServer(async (s) => {
  srv = s;
  ({ m, ids } = await shipments());
});

const lister = (m: LogisticsClient) => (query: Query) => m.GET("/inbound_shipments", { params: { query } });
const list = (query: Query) => lister(m)(query);

async function all(query: Query, list = lister(m)): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const { data } = await list({ ...query, ...(cursor && { cursor }) });
    seen.push(...data!.items.map((s) => s.id));
    if (data!.next_cursor === null) return seen;
    cursor = data!.next_cursor;
  }
  throw new Error("cursor never ended");
}

describe("list inbound shipments", () => {
  it("pages through every shipment once, oldest change first, ending with next_cursor null", async () => {
    const first = await list({ limit: 2 });
    expect(first.data!.items).toHaveLength(2);
    expect(first.data!.next_cursor).toEqual(expect.any(String));
    expect(await all({ limit: 2 })).toEqual(ids);
    expect(await all({ limit: 5 })).toEqual(ids);
    expect((await list({ limit: 5 })).data!.next_cursor).toBeNull();
  });

  it("returns full shipments in the retrieval shape", async () => {
    const { data } = await list({ limit: 1 });
    expect(data!.items[0]).toMatchObject({
      id: ids[0],
      status: "initial",
      products: [expect.objectContaining({ qty: 10, arrivedQty: 0 }), expect.objectContaining({ qty: 5 })],
    });
  });

  it("moves a changed shipment to the end, so a poller sees it again", async () => {
    const own = await shipments();
    const changed = own.ids[1]!;
    const r = await own.m.POST("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: changed } },
      body: { sender_name: "Changed Oy" },
    });
    expect(r.response.status).toBe(200);
    const order = await all({ limit: 2 }, lister(own.m));
    expect(order).toEqual([...own.ids.filter((id) => id !== changed), changed]);
  });

  it("filters by merchants_ref, status and updated_since", async () => {
    const own = await shipments();
    const ownAll = (query: Query) => all(query, lister(own.m));
    expect(await ownAll({ merchants_ref: "PO-ODD" })).toEqual([own.ids[1], own.ids[3]]);
    const confirmedId = own.ids[0]!;
    const confirmed = await own.m.POST("/inbound_shipments/{shipment_id}/_confirm", {
      params: { path: { shipment_id: confirmedId } },
    });
    expect(confirmed.response.status).toBe(200);
    expect(await ownAll({ status: ["confirmed"] })).toEqual([confirmedId]);
    expect((await ownAll({ status: ["confirmed", "initial"] })).sort()).toEqual([...own.ids].sort());
    expect(await ownAll({ status: ["processed"] })).toEqual([]);
    const { data } = await lister(own.m)({ limit: 100 });
    const newest = data!.items.at(-1)!;
    expect(newest.id).toBe(confirmedId);
    expect(await ownAll({ updated_since: newest.updated_at })).toContain(newest.id);
    expect(await ownAll({ updated_since: "2999-01-01T00:00:00+00:00" })).toEqual([]);
  });

  it("rejects a cursor it did not issue", async () => {
    expectError(await list({ cursor: "bm90LWEtY3Vyc29y" }), 400, "validation_failed");
  });
});
