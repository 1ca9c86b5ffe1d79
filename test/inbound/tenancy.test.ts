// Tenancy: a merchant never sees, changes or learns of another merchant's shipments and products.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import {
  announcement,
  arrive,
  createShipment,
  expectError,
  getShipment,
  expectUnchanged,
} from "../helpers/fixtures.ts";

type S = components["schemas"];
type Result = { response: Response; error?: unknown };

let srv: TestServer;
let a: LogisticsClient;
let b: LogisticsClient;
let w: LogisticsClient;
let aId: string;
let aConfirmedId: string;
let bId: string;

useTestServer(async (s) => {
  srv = s;
  a = await srv.merchant("tenant-a.example.com");
  b = await srv.merchant("tenant-b.example.com");
  w = await srv.operator();
  aId = await createShipment(a, announcement({ merchants_ref: "PO-A-1" }));
  aConfirmedId = await createShipment(a, announcement({ merchants_ref: "PO-A-2" }));
  expect(
    (await a.POST("/inbound_shipments/{shipment_id}/_confirm", { params: { path: { shipment_id: aConfirmedId } } }))
      .response.status,
  ).toBe(200);
  bId = await createShipment(b, announcement({ merchants_ref: "PO-B-1" }));
});

const unchanged = <R>(request: () => Promise<R>) => expectUnchanged(srv, request);

function expectNotFound(result: Result): void {
  const error = expectError(result, 404, "not_found");
  expect(error.details).toEqual([]);
  expect(JSON.stringify(error)).not.toContain("tenant-a");
}

describe("merchant B gets 404 (never 403) on merchant A's shipment, and A's shipment stays as it was", () => {
  const p = () => ({ params: { path: { shipment_id: aId } } });

  it("GET", async () => {
    expectNotFound(await unchanged(() => b.GET("/inbound_shipments/{shipment_id}", p())));
  });

  it("modify", async () => {
    expectNotFound(
      await unchanged(() =>
        b.POST("/inbound_shipments/{shipment_id}", {
          ...p(),
          body: { merchants_ref: "HIJACKED", expected_at_wh: "2016-01-20" },
        }),
      ),
    );
  });

  it("modify with products_all", async () => {
    expectNotFound(
      await unchanged(() =>
        b.POST("/inbound_shipments/{shipment_id}", {
          ...p(),
          body: { products_all: [{ merchants_id: "SKU-1001", qty: 1 }] },
        }),
      ),
    );
  });

  it("confirm", async () => {
    expectNotFound(await unchanged(() => b.POST("/inbound_shipments/{shipment_id}/_confirm", p())));
  });

  it("DELETE", async () => {
    expectNotFound(await unchanged(() => b.DELETE("/inbound_shipments/{shipment_id}", p())));
  });

  it("POST _delete", async () => {
    expectNotFound(await unchanged(() => b.POST("/inbound_shipments/{shipment_id}/_delete", p())));
  });

  it("the answers are the same as for an id that does not exist at all", async () => {
    const missing = { params: { path: { shipment_id: "000000000000000000000abc" } } };
    const foreign = await b.GET("/inbound_shipments/{shipment_id}", p());
    const none = await b.GET("/inbound_shipments/{shipment_id}", missing);
    expectNotFound(none);
    const strip = (r: Result) => {
      const { request_id: _, ...rest } = r.error as S["Error"];
      return rest;
    };
    expect(strip(foreign)).toEqual(strip(none));
  });

  it("a shipment A confirmed is not deletable or confirmable by B either (404, not 409)", async () => {
    const q = { params: { path: { shipment_id: aConfirmedId } } };
    await unchanged(async () => {
      expectNotFound(await b.POST("/inbound_shipments/{shipment_id}/_confirm", q));
      expectNotFound(await b.DELETE("/inbound_shipments/{shipment_id}", q));
      expectNotFound(await b.POST("/inbound_shipments/{shipment_id}/_delete", q));
    });
  });

  it("A still sees its shipment exactly as created, in status initial", async () => {
    const s = await getShipment(a, aId);
    expect(s).toMatchObject({ id: aId, merchants_ref: "PO-A-1", status: "initial", expected_at_wh: null });
    expect(s.products.map((l) => [l.product.merchants_id, l.qty])).toEqual([
      ["SKU-1001", 10],
      ["SKU-1002", 5],
    ]);
    expect((await getShipment(a, aConfirmedId)).status).toBe("confirmed");
  });

  it("A can still do what B could not (the 404s were about ownership)", async () => {
    const id = await createShipment(a, announcement({ merchants_ref: "PO-A-3" }));
    const q = { params: { path: { shipment_id: id } } };
    expect(
      (await a.POST("/inbound_shipments/{shipment_id}", { ...q, body: { sender_name: "Changed Oy" } })).response.status,
    ).toBe(200);
    expect((await a.POST("/inbound_shipments/{shipment_id}/_confirm", q)).response.status).toBe(200);
    expect((await a.DELETE("/inbound_shipments/{shipment_id}", q)).response.status).toBe(200);
    expect((await getShipment(a, id)).status).toBe("deleted");
  });
});

describe("lists and catalogues are per merchant", () => {
  it("B's list contains only B's shipments, whatever the filter", async () => {
    const all = await b.GET("/inbound_shipments", { params: { query: { limit: 100 } } });
    expect(all.response.status).toBe(200);
    expect(all.data!.items.map((s) => s.id)).toEqual([bId]);
    const byRef = await b.GET("/inbound_shipments", { params: { query: { merchants_ref: "PO-A-1" } } });
    expect(byRef.data!.items).toEqual([]);
    const byStatus = await b.GET("/inbound_shipments", {
      params: { query: { status: ["initial", "confirmed", "deleted"] } },
    });
    expect(byStatus.data!.items.map((s) => s.id)).toEqual([bId]);
  });

  it("A's list contains A's shipments and not B's", async () => {
    const { data } = await a.GET("/inbound_shipments", { params: { query: { limit: 100 } } });
    const ids = data!.items.map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining([aId, aConfirmedId]));
    expect(ids).not.toContain(bId);
    expect(data!.items.every((s) => s.merchants_ref.startsWith("PO-A-"))).toBe(true);
  });

  it("the same merchants_id in two merchants' catalogues is two different products", async () => {
    const sa = await getShipment(a, aId);
    const sb = await getShipment(b, bId);
    const pa = sa.products.find((l) => l.product.merchants_id === "SKU-1001")!.product;
    const pb = sb.products.find((l) => l.product.merchants_id === "SKU-1001")!.product;
    expect(pa.id).toMatch(/^[0-9a-f]{24}$/);
    expect(pb.id).toMatch(/^[0-9a-f]{24}$/);
    expect(pa.id).not.toBe(pb.id);
  });

  it("B renaming its SKU-1001 does not rename A's product", async () => {
    const id = await createShipment(
      b,
      announcement({
        merchants_ref: "PO-B-2",
        products: [{ merchants_id: "SKU-1001", name: "B's own thing", gtin: "", qty: 1 }],
      }),
    );
    expect((await getShipment(b, id)).products[0]!.product.name).toBe("B's own thing");
    const line = (await getShipment(a, aId)).products.find((l) => l.product.merchants_id === "SKU-1001")!;
    expect(line.product).toMatchObject({ name: "Blue T-shirt M", gtin: "6410405082657" });
  });

  it("within one merchant the same merchants_id is one product across shipments", async () => {
    const id = await createShipment(a, announcement({ merchants_ref: "PO-A-4" }));
    const first = (await getShipment(a, aId)).products[0]!.product.id;
    expect((await getShipment(a, id)).products[0]!.product.id).toBe(first);
  });

  it("arrivals the warehouse records on A's shipment are invisible on B's line of the same SKU", async () => {
    expect((await arrive(w, aId, [{ merchants_id: "SKU-1001", change: 3 }])).response.status).toBe(200);
    expect((await getShipment(a, aId)).products[0]!.arrivedQty).toBe(3);
    const sb = await getShipment(b, bId);
    expect(sb.products.find((l) => l.product.merchants_id === "SKU-1001")).toMatchObject({
      arrivedQty: 0,
      arrivals: [],
    });
    expect(sb.status).toBe("initial");
  });
});
