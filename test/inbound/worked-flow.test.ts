// SEED.md's worked flow: create -> modify with expected_at_wh -> the warehouse records arrivals ->
// the merchant reads arrivedQty as the sum of the arrival entries.
import { describe, expect, it } from "vitest";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { announcement, arrive, getShipment } from "../helpers/fixtures.ts";

let srv: TestServer;
useTestServer((s) => {
  srv = s;
});

describe("inbound shipment worked flow", () => {
  it("announces, modifies, receives and reports arrivals in the SEED.md shape", async () => {
    const m = await srv.merchant();
    const w = await srv.operator();

    const created = await m.POST("/inbound_shipments/_create", { body: announcement() });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ success: true });
    const id = created.data!.shipment_id;
    expect(id).toMatch(/^[0-9a-f]{24}$/);

    const modified = await m.POST("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: id } },
      body: { expected_at_wh: "2016-01-20" },
    });
    expect(modified.response.status).toBe(200);
    expect(modified.data).toMatchObject({ success: true, shipment_id: id });

    expect(
      (await arrive(w, id, [{ merchants_id: "SKU-1001", change: 6 }], "2016-01-20T09:12:01+00:00")).response.status,
    ).toBe(200);
    expect(
      (
        await arrive(
          w,
          id,
          [
            { merchants_id: "SKU-1001", change: 4 },
            { merchants_id: "SKU-1002", change: 2 },
          ],
          "2016-01-20T12:40:33+02:00",
        )
      ).response.status,
    ).toBe(200);

    const s = await getShipment(m, id);
    expect(Object.keys(s).sort()).toEqual([
      "actions",
      "created_at",
      "expected_at_wh",
      "id",
      "merchants_ref",
      "problems",
      "products",
      "sender_name",
      "status",
      "updated_at",
    ]);
    expect(s).toMatchObject({
      id,
      merchants_ref: "PO-2016-0042",
      sender_name: "Acme Supplies Oy",
      status: "processing",
      expected_at_wh: "2016-01-20",
      actions: ["modify"],
    });
    const [l1, l2] = s.products;
    expect(Object.keys(l1!).sort()).toEqual(["arrivals", "arrivedQty", "product", "qty"]);
    expect(Object.keys(l1!.product).sort()).toEqual(["gtin", "id", "merchants_id", "name"]);
    expect(l1!.product).toMatchObject({ merchants_id: "SKU-1001", name: "Blue T-shirt M", gtin: "6410405082657" });
    expect(l1!.product.id).toMatch(/^[0-9a-f]{24}$/);
    // SEED.md's arrival entry (ts, change), and who recorded it (additive): here the W-... warehouse system.
    const warehouse = { type: "warehouse", id: expect.any(String), name: expect.any(String) };
    expect(l1!.arrivals).toEqual([
      { ts: "2016-01-20T09:12:01+00:00", change: 6, recorded_by: warehouse },
      { ts: "2016-01-20T10:40:33+00:00", change: 4, recorded_by: warehouse },
    ]);
    expect(l1!.arrivedQty).toBe(10);
    expect(l2).toMatchObject({ qty: 5, arrivedQty: 2, arrivals: [{ ts: "2016-01-20T10:40:33+00:00", change: 2 }] });
    expect(l2!.product.gtin).toBe("");
    for (const line of s.products) expect(line.arrivedQty).toBe(line.arrivals.reduce((a, e) => a + e.change, 0));
    expect(s.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  });

  it("answers the demo request of the README exactly as written", async () => {
    const { DEMO, exampleRequest } = await import("../../server/demo.ts");
    const { seedDemo } = await import("../../server/demo.ts");
    await seedDemo(srv.handle.db);
    const cmd = exampleRequest(srv.baseUrl);
    const body = /-d '([^']+)'/.exec(cmd)![1]!;
    const res = await fetch(`${srv.baseUrl}/inbound_shipments/_create`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Basic ${Buffer.from(`M-${DEMO.merchantId}:${DEMO.merchantSecret}`).toString("base64")}`,
      },
      body,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ success: true });
  });
});
