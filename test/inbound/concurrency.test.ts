// Concurrent writers on one shipment never lose an update.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { useTestAccounts, type TestServer } from "../helpers/server.ts";
import { announcement, arrive, createShipment, getShipment } from "../helpers/fixtures.ts";

type S = components["schemas"];

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
useTestAccounts((s) => ({ srv, m, w } = s));

const lineOf = (s: S["InboundShipment"], sku: string) => {
  const l = s.products.find((p) => p.product.merchants_id === sku);
  expect(l, `line ${sku}`).toBeDefined();
  return l!;
};

const sum = (l: S["InboundShipmentLine"]) => l.arrivals.reduce((a, e) => a + e.change, 0);

describe("concurrent arrivals", () => {
  it("25 concurrent arrivals of 1 on one line: every call 200, arrivedQty 25, 25 entries", async () => {
    const id = await createShipment(
      m,
      announcement({ products: [{ merchants_id: "SKU-1001", name: "Blue T-shirt M", gtin: "", qty: 25 }] }),
    );
    const results = await Promise.all(
      Array.from({ length: 25 }, () => arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }])),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(25).fill(200));
    // Each response shows the state after its own arrival: the totals seen are exactly 1..25.
    const seen = results.map((r) => lineOf(r.data!, "SKU-1001").arrivedQty).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));

    const s = await getShipment(m, id);
    const l = lineOf(s, "SKU-1001");
    expect(l.arrivedQty).toBe(25);
    expect(l.arrivals).toHaveLength(25);
    expect(l.arrivals.every((e) => e.change === 1)).toBe(true);
    expect(sum(l)).toBe(25);
    expect(s.status).toBe("processing");
    const stored = await srv.snapshot();
    expect((stored.inbound_arrivals as { shipment_id: string }[]).filter((r) => r.shipment_id === id)).toHaveLength(25);
    // The first arrival moved it to processing exactly once.
    const history = (
      stored.inbound_status_history as { shipment_id: string; from_status: string | null; to_status: string }[]
    ).filter((r) => r.shipment_id === id);
    expect(history.map((h) => [h.from_status, h.to_status])).toEqual([
      [null, "initial"],
      ["initial", "processing"],
    ]);
  });

  it("concurrent arrivals on different lines and new products all land", async () => {
    const id = await createShipment(m);
    const calls = [
      ...Array.from({ length: 10 }, () => [{ merchants_id: "SKU-1001", change: 1 }]),
      ...Array.from({ length: 10 }, () => [{ merchants_id: "SKU-1002", change: 2 }]),
      ...Array.from({ length: 5 }, (_, i) => [{ merchants_id: `SKU-NEW-${i}`, change: 1, name: `New ${i}` }]),
    ];
    const results = await Promise.all(calls.map((arrivals) => arrive(w, id, arrivals)));
    expect(results.map((r) => r.response.status)).toEqual(Array(calls.length).fill(200));
    const s = await getShipment(m, id);
    expect(lineOf(s, "SKU-1001").arrivedQty).toBe(10);
    expect(lineOf(s, "SKU-1002").arrivedQty).toBe(20);
    for (let i = 0; i < 5; i++) expect(lineOf(s, `SKU-NEW-${i}`)).toMatchObject({ qty: 0, arrivedQty: 1 });
    expect(s.products).toHaveLength(7);
    for (const l of s.products) expect(l.arrivedQty).toBe(sum(l));
  });

  it("concurrent corrections never take arrivedQty below zero", async () => {
    const id = await createShipment(m);
    expect((await arrive(w, id, [{ merchants_id: "SKU-1001", change: 5 }])).response.status).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => arrive(w, id, [{ merchants_id: "SKU-1001", change: -1 }])),
    );
    const statuses = results.map((r) => r.response.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(5).fill(409)]);
    for (const r of results.filter((x) => x.response.status === 409))
      expect(r.error).toMatchObject({ success: false, code: "conflict" });
    const l = lineOf(await getShipment(m, id), "SKU-1001");
    expect(l.arrivedQty).toBe(0);
    expect(l.arrivals).toHaveLength(6);
  });
});

describe("concurrent modifications and arrivals", () => {
  it("modify and arrivals at the same time: neither update is lost", async () => {
    const id = await createShipment(m);
    const modifies = Array.from(
      { length: 10 },
      (_, i) => () =>
        m.POST("/inbound_shipments/{shipment_id}", {
          params: { path: { shipment_id: id } },
          body: { products: [{ merchants_id: `SKU-ADD-${i}`, name: `Added ${i}`, qty: i + 1 }] },
        }),
    );
    const arrivals = Array.from({ length: 10 }, () => () => arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }]));
    // Interleave the two kinds so they really overlap.
    const calls = modifies.flatMap((mod, i) => [mod, arrivals[i]!]);
    const results = await Promise.all(calls.map((call) => call()));
    expect(results.map((r) => r.response.status)).toEqual(Array(20).fill(200));

    const s = await getShipment(m, id);
    const l = lineOf(s, "SKU-1001");
    expect(l.arrivedQty).toBe(10);
    expect(l.arrivals).toHaveLength(10);
    expect(l.qty).toBe(10);
    expect(lineOf(s, "SKU-1002")).toMatchObject({ qty: 5, arrivedQty: 0 });
    for (let i = 0; i < 10; i++) expect(lineOf(s, `SKU-ADD-${i}`)).toMatchObject({ qty: i + 1, arrivedQty: 0 });
    expect(s.products).toHaveLength(12);
    expect(s.status).toBe("processing");
  });

  it("modifying the header fields while arrivals land keeps both the fields and the counts", async () => {
    const id = await createShipment(m);
    const calls = [
      () =>
        m.POST("/inbound_shipments/{shipment_id}", {
          params: { path: { shipment_id: id } },
          body: { expected_at_wh: "2016-01-20" },
        }),
      ...Array.from({ length: 6 }, () => () => arrive(w, id, [{ merchants_id: "SKU-1002", change: 1 }])),
      () =>
        m.POST("/inbound_shipments/{shipment_id}", {
          params: { path: { shipment_id: id } },
          body: { sender_name: "Renamed Supplier Oy" },
        }),
      () =>
        m.POST("/inbound_shipments/{shipment_id}", {
          params: { path: { shipment_id: id } },
          body: { products: [{ merchants_id: "SKU-1001", qty: 12 }] },
        }),
    ];
    const results = await Promise.all(calls.map((c) => c()));
    expect(results.map((r) => r.response.status)).toEqual(Array(calls.length).fill(200));
    const s = await getShipment(m, id);
    expect(s).toMatchObject({ expected_at_wh: "2016-01-20", sender_name: "Renamed Supplier Oy", status: "processing" });
    expect(lineOf(s, "SKU-1001")).toMatchObject({ qty: 12, arrivedQty: 0 });
    expect(lineOf(s, "SKU-1002")).toMatchObject({ qty: 5, arrivedQty: 6 });
    expect(lineOf(s, "SKU-1002").arrivals).toHaveLength(6);
  });

  it("products_all replacing the lines while arrivals land never drops a line that has arrivals", async () => {
    const id = await createShipment(m);
    // The replacement keeps SKU-1001 (which is receiving arrivals) and drops SKU-1002.
    const replace = () =>
      m.POST("/inbound_shipments/{shipment_id}", {
        params: { path: { shipment_id: id } },
        body: {
          products_all: [
            { merchants_id: "SKU-1001", qty: 10 },
            { merchants_id: "SKU-1003", name: "Third", qty: 1 },
          ],
        },
      });
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }])),
      replace(),
      ...Array.from({ length: 5 }, () => arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }])),
    ]);
    expect(results.map((r) => r.response.status)).toEqual(Array(11).fill(200));
    const s = await getShipment(m, id);
    expect(s.products.map((l) => l.product.merchants_id).sort()).toEqual(["SKU-1001", "SKU-1003"]);
    expect(lineOf(s, "SKU-1001")).toMatchObject({ qty: 10, arrivedQty: 10 });
    expect(lineOf(s, "SKU-1001").arrivals).toHaveLength(10);
  });

  it("products_all dropping a line while arrivals for it land: no arrival is lost or orphaned", async () => {
    const id = await createShipment(m);
    const arriveOne = () => arrive(w, id, [{ merchants_id: "SKU-1002", change: 1 }]);
    const replace = m.POST("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: id } },
      body: { products_all: [{ merchants_id: "SKU-1001", qty: 10 }] },
    });
    const [before, replaced, after] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, arriveOne)),
      replace,
      Promise.all(Array.from({ length: 5 }, arriveOne)),
    ]);
    expect([...before, ...after].map((r) => r.response.status)).toEqual(Array(10).fill(200));
    expect([200, 409]).toContain(replaced.response.status);

    const s = await getShipment(m, id);
    const l = lineOf(s, "SKU-1002");
    expect(l.arrivedQty).toBe(10);
    expect(l.arrivals).toHaveLength(10);
    if (replaced.response.status === 409) {
      // Some items had arrived first: the line with arrivals could not be removed.
      expect(replaced.error).toMatchObject({ success: false, code: "conflict" });
      expect(l.qty).toBe(5);
    } else {
      // The replacement ran before any arrival: the items then arrived as an unannounced product.
      expect(l.qty).toBe(0);
    }
    const stored = await srv.snapshot();
    const lines = (stored.inbound_lines as { shipment_id: string; product_id: string }[]).filter(
      (r) => r.shipment_id === id,
    );
    const arrivals = (stored.inbound_arrivals as { shipment_id: string; product_id: string }[]).filter(
      (r) => r.shipment_id === id,
    );
    expect(arrivals).toHaveLength(10);
    for (const a of arrivals) expect(lines.map((x) => x.product_id)).toContain(a.product_id);
  });
});

describe("concurrent announcements naming the same products", () => {
  it("20 at once, of products new to the catalogue and then known: every call 201, one product per merchants_id", async () => {
    const products = [1, 2, 3].map((i) => ({ merchants_id: `SKU-RACE-${i}`, name: `Race ${i}`, gtin: "", qty: 1 }));
    const rounds = [];
    // First all new (the catalogue's inserts race), then all known (reads only).
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          m.POST("/inbound_shipments/_create", {
            body: announcement({ merchants_ref: `RACE-${round}-${n}`, products }),
          }),
        ),
      );
      expect(results.map((r) => r.response.status)).toEqual(Array(20).fill(201));
      rounds.push(...(await Promise.all(results.map((r) => getShipment(m, r.data!.shipment_id)))));
    }
    for (const [i, p] of products.entries()) {
      const ids = new Set(rounds.map((s) => s.products[i]!.product.id));
      expect(ids.size, p.merchants_id).toBe(1);
      expect(rounds.every((s) => s.products[i]!.product.name === p.name)).toBe(true);
    }
    const rows = await srv.handle.db
      .selectFrom("products")
      .select("id")
      .where("merchants_id", "like", "SKU-RACE-%")
      .execute();
    expect(rows).toHaveLength(3);
  });

  it("a name given at the same time as others omit it: the catalogue takes it, and omitting it later keeps it", async () => {
    const id = await createShipment(
      m,
      announcement({ products: [{ merchants_id: "SKU-NAMED", name: "Old name", gtin: "", qty: 1 }] }),
    );
    const results = await Promise.all([
      m.POST("/inbound_shipments/_create", {
        body: announcement({ merchants_ref: "N-1", products: [{ merchants_id: "SKU-NAMED", qty: 1 }] }),
      }),
      m.POST("/inbound_shipments/_create", {
        body: announcement({
          merchants_ref: "N-2",
          products: [{ merchants_id: "SKU-NAMED", name: "New name", gtin: "6410405082657", qty: 1 }],
        }),
      }),
      m.POST("/inbound_shipments/_create", {
        body: announcement({ merchants_ref: "N-3", products: [{ merchants_id: "SKU-NAMED", qty: 2 }] }),
      }),
    ]);
    expect(results.map((r) => r.response.status)).toEqual([201, 201, 201]);
    expect((await getShipment(m, id)).products[0]!.product).toMatchObject({ name: "New name", gtin: "6410405082657" });
  });
});
