// The list's two orders (sort) and its search (q): newest first for people, oldest change first for pollers; each
// order's cursors page through every shipment once and are refused by the other order; the search ignores case,
// takes every character literally and combines with the filters and either order.
import { describe, expect, it } from "vitest";
import type { LogisticsClient, operations } from "../../client/index.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { announcement, createShipment, expectError, expectUnchanged } from "../helpers/fixtures.ts";

type Query = NonNullable<operations["listInboundShipments"]["parameters"]["query"]>;

type Named = Record<"percent" | "plain" | "underscore" | "backslash" | "upper" | "noUnderscore", string>;

let srv: TestServer;
/** The file's merchant and its shipments, which no test changes: a test that changes some makes its own. */
let m: LogisticsClient;
/** Created in this order, a few milliseconds apart: by name, what each tests. */
let ids: Named;
let created: string[];

/** A merchant of its own with the six shipments, created in the order of `created`. */
async function shipments(): Promise<{ m: LogisticsClient; ids: Named; created: string[] }> {
  const m = await srv.merchant();
  const list: [keyof Named, string, string][] = [
    ["percent", "PO-100%", "Acme Supplies Oy"],
    ["plain", "PO-1000", "Nordic Goods Ab"],
    ["underscore", "PO-2", "Nordic_Goods Ab"],
    ["backslash", "PO-3", "Back\\slash Oy"],
    ["upper", "po-lower", "ACME FINLAND OY"],
    ["noUnderscore", "PO-5", "NordicXGoods Ab"],
  ];
  const ids = {} as Named;
  const created: string[] = [];
  for (const [name, merchants_ref, sender_name] of list) {
    ids[name] = await createShipment(m, announcement({ merchants_ref, sender_name }));
    created.push(ids[name]);
    await new Promise((r) => setTimeout(r, 5)); // distinct created_at and updated_at
  }
  return { m, ids, created };
}

useTestServer(async (s) => {
  srv = s;
  // Another merchant's shipment that every search would match: never listed here.
  await createShipment(await srv.merchant(), announcement({ sender_name: "Acme 100% Oy" }));
  ({ m, ids, created } = await shipments());
});

const lister = (m: LogisticsClient) => (query: Query) => m.GET("/inbound_shipments", { params: { query } });
const list = (query: Query) => lister(m)(query);

/** Every id the list gives for `query`, following next_cursor to the end. */
async function all(query: Query, list = lister(m)): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const r = await list({ ...query, ...(cursor && { cursor }) });
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    seen.push(...r.data!.items.map((s) => s.id));
    if (r.data!.next_cursor === null) return seen;
    cursor = r.data!.next_cursor;
  }
  throw new Error("cursor never ended");
}

describe("sort", () => {
  it("-created_at lists newest first, every shipment once on any page size", async () => {
    const newestFirst = [...created].reverse();
    for (const limit of [1, 2, 4, 6, 100]) expect(await all({ sort: "-created_at", limit })).toEqual(newestFirst);
    const first = await list({ sort: "-created_at", limit: 2 });
    expect(first.data!.items.map((s) => s.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.data!.next_cursor).toEqual(expect.any(String));
  });

  it("updated_at is the default order, oldest change first; a change moves a shipment there but not in -created_at", async () => {
    const own = await shipments();
    const ownAll = (query: Query) => all(query, lister(own.m));
    expect(await ownAll({ limit: 2 })).toEqual(own.created);
    expect(await ownAll({ sort: "updated_at", limit: 2 })).toEqual(own.created);
    const oldest = own.created[0]!;
    const r = await own.m.POST("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: oldest } },
      body: { sender_name: "Acme Supplies Oy" },
    });
    expect(r.response.status).toBe(200);
    expect(await ownAll({ limit: 2 })).toEqual([...own.created.slice(1), oldest]);
    expect(await ownAll({ sort: "-created_at", limit: 2 })).toEqual([...own.created].reverse());
  });

  it("a cursor of one order is 400 validation_failed on /query/cursor in the other, and nothing changes", async () => {
    const byChange = (await list({ limit: 1 })).data!.next_cursor!;
    const newest = (await list({ sort: "-created_at", limit: 1 })).data!.next_cursor!;
    for (const [sort, cursor] of [
      ["-created_at", byChange],
      ["updated_at", newest],
    ] as const) {
      const r = await expectUnchanged(srv, () => list({ sort, cursor, limit: 1 }));
      const error = expectError(r, 400, "validation_failed", ["/query/cursor"]);
      expect(error.details).toEqual([expect.objectContaining({ path: "/query/cursor", code: "cursor" })]);
    }
    // Without sort (the default order), the newest-first cursor is refused too.
    expectError(await list({ cursor: newest }), 400, "validation_failed", ["/query/cursor"]);
    // Each cursor still works in its own order.
    expect((await list({ sort: "-created_at", cursor: newest, limit: 1 })).response.status).toBe(200);
    expect((await list({ cursor: byChange, limit: 1 })).response.status).toBe(200);
  });

  it.each([["created_at"], ["-updated_at"], ["CREATED_AT"], [""]])(
    "sort=%j is 400 validation_failed on /query/sort",
    async (sort) => {
      const r = await expectUnchanged(srv, () => list({ sort: sort as never }));
      expectError(r, 400, "validation_failed", ["/query/sort"]);
    },
  );
});

describe("q searches merchants_ref and sender_name", () => {
  it("ignores case and matches a part of either field", async () => {
    expect((await all({ q: "acme" })).sort()).toEqual([ids.percent, ids.upper].sort());
    expect((await all({ q: "ACME fin" })).sort()).toEqual([ids.upper]);
    expect((await all({ q: "po-" })).sort()).toEqual(Object.values(ids).sort());
    expect(await all({ q: "LOWER" })).toEqual([ids.upper]);
    expect(await all({ q: "Lapland" })).toEqual([]);
  });

  it("takes %, _ and \\ literally", async () => {
    expect(await all({ q: "100%" })).toEqual([ids.percent]);
    expect(await all({ q: "%" })).toEqual([ids.percent]);
    expect(await all({ q: "c_G" })).toEqual([ids.underscore]);
    expect(await all({ q: "_" })).toEqual([ids.underscore]);
    expect(await all({ q: "\\" })).toEqual([ids.backslash]);
    expect(await all({ q: "k\\s" })).toEqual([ids.backslash]);
    expect(await all({ q: "\\%" })).toEqual([]);
  });

  it("combines with status, merchants_ref, updated_since and both orders, paging included", async () => {
    const own = await shipments();
    const ids = own.ids;
    const listed = (query: Query) => all(query, lister(own.m));
    // percent changed after upper was created, then upper confirmed: the oldest change first is percent's.
    const changed = await own.m.POST("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: ids.percent } },
      body: { sender_name: "Acme Supplies Oy" },
    });
    expect(changed.response.status).toBe(200);
    const confirm = await own.m.POST("/inbound_shipments/{shipment_id}/_confirm", {
      params: { path: { shipment_id: ids.upper } },
    });
    expect(confirm.response.status).toBe(200);
    expect(await listed({ q: "acme", status: ["confirmed"] })).toEqual([ids.upper]);
    expect(await listed({ q: "acme", status: ["initial"] })).toEqual([ids.percent]);
    expect(await listed({ q: "nordic", merchants_ref: "PO-2" })).toEqual([ids.underscore]);
    expect(await listed({ q: "acme", sort: "-created_at", limit: 1 })).toEqual([ids.upper, ids.percent]);
    expect(await listed({ q: "acme", limit: 1 })).toEqual([ids.percent, ids.upper]);
    expect(await listed({ q: "nordic", sort: "-created_at", limit: 1 })).toEqual([
      ids.noUnderscore,
      ids.underscore,
      ids.plain,
    ]);
    const confirmedAt = (await lister(own.m)({ q: "acme", status: ["confirmed"] })).data!.items[0]!.updated_at;
    expect(await listed({ q: "acme", updated_since: confirmedAt, sort: "-created_at" })).toContain(ids.upper);
    expect(await listed({ q: "acme", updated_since: "2999-01-01T00:00:00Z", sort: "-created_at" })).toEqual([]);
  });

  it.each([
    ["empty", ""],
    ["101 characters", "x".repeat(101)],
  ])("q %s is 400 validation_failed on /query/q, and nothing changes", async (_name, q) => {
    const r = await expectUnchanged(srv, () => list({ q }));
    expectError(r, 400, "validation_failed", ["/query/q"]);
  });

  it("q of 100 characters is accepted", async () => {
    expect(await all({ q: "x".repeat(100) })).toEqual([]);
  });
});
