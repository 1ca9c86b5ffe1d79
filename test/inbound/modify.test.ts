// Modification: products merges, products_all replaces, arrived items can never be dropped.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { useTestAccounts, type TestServer } from "../helpers/server.ts";
import { announcement, arrive, createShipment, expectError, getShipment } from "../helpers/fixtures.ts";

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
useTestAccounts((s) => ({ srv, m, w } = s));

const modify = (id: string, body: components["schemas"]["InboundShipmentModify"]) =>
  m.POST("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } }, body });
const skus = async (id: string) => (await getShipment(m, id)).products.map((l) => [l.product.merchants_id, l.qty]);

describe("modify inbound shipment", () => {
  it("products merges by merchants_id: updates listed lines, appends new ones, keeps the rest", async () => {
    const id = await createShipment(m);
    const res = await modify(id, {
      products: [
        { merchants_id: "SKU-1001", qty: 12 },
        { merchants_id: "SKU-1003", name: "Blue T-shirt XL", qty: 3 },
      ],
    });
    expect(res.data).toEqual({ success: true, shipment_id: id, status: "initial" });
    expect(await skus(id)).toEqual([
      ["SKU-1001", 12],
      ["SKU-1002", 5],
      ["SKU-1003", 3],
    ]);
    const s = await getShipment(m, id);
    expect(s.products[0]!.product.name).toBe("Blue T-shirt M"); // omitted name keeps the catalogue's
    expect(s.products[2]!.product.name).toBe("Blue T-shirt XL");
  });

  it("products_all replaces the whole list in the given order", async () => {
    const id = await createShipment(m);
    await modify(id, {
      products_all: [
        { merchants_id: "SKU-1004", name: "Socks", qty: 2 },
        { merchants_id: "SKU-1002", qty: 7 },
      ],
    });
    expect(await skus(id)).toEqual([
      ["SKU-1004", 2],
      ["SKU-1002", 7],
    ]);
  });

  it("changes the header fields and sets or clears expected_at_wh", async () => {
    const id = await createShipment(m);
    await modify(id, { merchants_ref: "PO-2", sender_name: "Other Oy", expected_at_wh: "2016-02-29" });
    expect(await getShipment(m, id)).toMatchObject({
      merchants_ref: "PO-2",
      sender_name: "Other Oy",
      expected_at_wh: "2016-02-29",
    });
    await modify(id, { expected_at_wh: null });
    expect((await getShipment(m, id)).expected_at_wh).toBeNull();
  });

  it("updates the catalogue record shared by other shipments when a name or gtin is given", async () => {
    const a = await createShipment(m);
    const b = await createShipment(m);
    await modify(b, { products: [{ merchants_id: "SKU-1001", name: "Navy T-shirt M", gtin: "96385074", qty: 10 }] });
    expect((await getShipment(m, a)).products[0]!.product).toMatchObject({ name: "Navy T-shirt M", gtin: "96385074" });
  });

  it("refuses to cut a line below what arrived (409 conflict), changing nothing", async () => {
    const id = await createShipment(m);
    await arrive(w, id, [{ merchants_id: "SKU-1001", change: 4 }]);
    const before = await srv.snapshot();
    const err = expectError(await modify(id, { products: [{ merchants_id: "SKU-1001", qty: 3 }] }), 409, "conflict");
    expect(err.details[0]).toMatchObject({ path: "/body/products/0/qty" });
    expect(await srv.snapshot()).toEqual(before);
    expect((await modify(id, { products: [{ merchants_id: "SKU-1001", qty: 4 }] })).response.status).toBe(200);
  });

  it("refuses to drop a line with arrivals through products_all (409 conflict), changing nothing", async () => {
    const id = await createShipment(m);
    await arrive(w, id, [{ merchants_id: "SKU-1002", change: 1 }]);
    const before = await srv.snapshot();
    expectError(await modify(id, { products_all: [{ merchants_id: "SKU-1001", qty: 10 }] }), 409, "conflict");
    expect(await srv.snapshot()).toEqual(before);
  });

  it("lets a line without arrivals go and keeps the arrived one", async () => {
    const id = await createShipment(m);
    await arrive(w, id, [{ merchants_id: "SKU-1002", change: 1 }]);
    await modify(id, { products_all: [{ merchants_id: "SKU-1002", qty: 5 }] });
    expect(await skus(id)).toEqual([["SKU-1002", 5]]);
  });
});

describe("arrivals", () => {
  it("adds an unannounced product as a line with qty 0, creating it in the catalogue", async () => {
    const id = await createShipment(m);
    const res = await arrive(w, id, [{ merchants_id: "SKU-EXTRA", name: "Surprise mug", gtin: "96385074", change: 2 }]);
    expect(res.response.status).toBe(200);
    const line = res.data!.products.find((l) => l.product.merchants_id === "SKU-EXTRA")!;
    expect(line).toMatchObject({ qty: 0, arrivedQty: 2, product: { name: "Surprise mug", gtin: "96385074" } });
  });

  it("accepts a negative correction but never below zero (409 conflict)", async () => {
    const id = await createShipment(m);
    await arrive(w, id, [{ merchants_id: "SKU-1001", change: 3 }]);
    const fixed = await arrive(w, id, [{ merchants_id: "SKU-1001", change: -1 }]);
    expect(fixed.data!.products[0]).toMatchObject({ arrivedQty: 2, arrivals: [{ change: 3 }, { change: -1 }] });
    const before = await srv.snapshot();
    expectError(await arrive(w, id, [{ merchants_id: "SKU-1001", change: -3 }]), 409, "conflict");
    expect(await srv.snapshot()).toEqual(before);
  });
});

describe("closing with processed", () => {
  const close = (id: string) =>
    w.POST("/inbound_shipments/{shipment_id}/_status", {
      params: { path: { shipment_id: id } },
      body: { status: "processed" },
    });

  it("a short line sends the shipment to problem; the merchant's adjustment closes it by itself", async () => {
    const id = await createShipment(m);
    await arrive(w, id, [
      { merchants_id: "SKU-1001", change: 10 },
      { merchants_id: "SKU-1002", change: 3 },
    ]);
    const closed = await close(id);
    expect(closed.data!.status).toBe("problem");
    expect(closed.data!.problems).toEqual([
      expect.objectContaining({
        type: "product.missing",
        merchants_id: "SKU-1002",
        resolved: false,
        resolved_at: null,
      }),
    ]);

    const adjusted = await modify(id, { products: [{ merchants_id: "SKU-1002", qty: 3 }] });
    expect(adjusted.data!.status).toBe("processed");
    const s = await getShipment(m, id);
    expect(s.status).toBe("processed");
    expect(s.problems[0]).toMatchObject({ resolved: true });
    expect(s.problems[0]!.resolved_at).toMatch(/\+00:00$/);
  });

  it("an over-delivered line is product.extra; late arrivals of a short line also settle it", async () => {
    const id = await createShipment(m);
    await arrive(w, id, [
      { merchants_id: "SKU-1001", change: 12 },
      { merchants_id: "SKU-1002", change: 4 },
    ]);
    const closed = await close(id);
    expect(closed.data!.problems.map((p) => [p.type, p.merchants_id]).sort()).toEqual([
      ["product.extra", "SKU-1001"],
      ["product.missing", "SKU-1002"],
    ]);
    await arrive(w, id, [{ merchants_id: "SKU-1002", change: 1 }]);
    expect((await getShipment(m, id)).status).toBe("problem"); // SKU-1001 still over
    await modify(id, { products: [{ merchants_id: "SKU-1001", qty: 12 }] });
    expect((await getShipment(m, id)).status).toBe("processed");
  });

  it("the warehouse closing again from problem accepts the difference", async () => {
    const id = await createShipment(m);
    await arrive(w, id, [{ merchants_id: "SKU-1001", change: 9 }]);
    expect((await close(id)).data!.status).toBe("problem");
    const again = await close(id);
    expect(again.data!.status).toBe("processed");
    expect(again.data!.problems.every((p) => p.resolved)).toBe(true);
  });

  it("a damage report is not settled by quantities: the shipment stays in problem", async () => {
    const id = await createShipment(m);
    await arrive(w, id, [
      { merchants_id: "SKU-1001", change: 10 },
      { merchants_id: "SKU-1002", change: 4 },
    ]);
    await close(id);
    const path = { params: { path: { shipment_id: id } } };
    // The warehouse adds a damage report while it waits for the merchant.
    await srv.handle.db
      .insertInto("inbound_problems")
      .values({
        id: "0".repeat(23) + "1",
        shipment_id: id,
        type: "damaged",
        merchants_id: null,
        description: "Box crushed",
        created_at: new Date(),
      })
      .execute();
    await modify(id, { products: [{ merchants_id: "SKU-1002", qty: 4 }] });
    const s = (await m.GET("/inbound_shipments/{shipment_id}", path)).data!;
    expect(s.status).toBe("problem");
    expect(s.problems.find((p) => p.type === "product.missing")!.resolved).toBe(true);
    expect(s.problems.find((p) => p.type === "damaged")!.resolved).toBe(false);
  });
});

describe("create", () => {
  it("stores purchasePrice to the cent and returns it", async () => {
    const id = await createShipment(
      m,
      announcement({ products: [{ merchants_id: "SKU-P", qty: 1, purchasePrice: 19.99 }] }),
    );
    expect((await getShipment(m, id)).products[0]).toMatchObject({ purchasePrice: 19.99 });
  });
});
