// Idempotency-Key on the POSTs that create something: a retry returns the first response without a
// second effect; the same key with another body is 422; keys are scoped to the caller.
import { beforeAll, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { announcement, createShipment, expectError, getShipment, expectUnchanged } from "../helpers/fixtures.ts";

type S = components["schemas"];

let srv: TestServer;
let w: LogisticsClient;

useTestServer(async (s) => {
  srv = s;
  w = await srv.operator();
});

const unchanged = <R>(request: () => Promise<R>) => expectUnchanged(srv, request);

const create = (c: LogisticsClient, key: string, body: S["InboundShipmentCreate"] = announcement()) =>
  c.POST("/inbound_shipments/_create", { params: { header: { "Idempotency-Key": key } }, body });

const arrivalsWithKey = (id: string, key: string, arrivals: S["ArrivalLineInput"][], ts?: string) =>
  w.POST("/inbound_shipments/{shipment_id}/arrivals", {
    params: { path: { shipment_id: id }, header: { "Idempotency-Key": key } },
    body: { arrivals, ...(ts && { ts }) },
  });

async function listAll(c: LogisticsClient): Promise<S["InboundShipment"][]> {
  const { data, response } = await c.GET("/inbound_shipments", { params: { query: { limit: 100 } } });
  expect(response.status).toBe(200);
  expect(data!.next_cursor).toBeNull();
  return data!.items;
}

/** Same JSON text, key order included: a replay returns the first response, not an equivalent one. */
function expectIdenticalBodies(bodies: unknown[]): void {
  const texts = bodies.map((b) => JSON.stringify(b));
  for (const t of texts) expect(t).toBe(texts[0]);
}

/** A merchant of its own, so that its list shows only what one test did. */
const freshMerchant = () => srv.merchant();

const line = (id: string, l: S["InboundShipment"]["products"][number] | undefined) => {
  expect(l, `line ${id}`).toBeDefined();
  return l!;
};

describe("create with an Idempotency-Key", () => {
  it("a retry with the same key and body returns the same 201 and body, marked as replayed, and stores one shipment", async () => {
    const m = await freshMerchant();
    const first = await create(m, "create-retry-1");
    expect(first.response.status).toBe(201);
    expect(first.response.headers.get("idempotent-replayed")).toBeNull();
    expect(first.data).toMatchObject({ success: true, shipment_id: expect.stringMatching(/^[0-9a-f]{24}$/) });

    const second = await unchanged(() => create(m, "create-retry-1"));
    expect(second.response.status).toBe(201);
    expect(second.data).toEqual(first.data);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");

    const third = await create(m, "create-retry-1");
    expect(third.response.status).toBe(201);
    expect(third.data).toEqual(first.data);

    const items = await listAll(m);
    expect(items.map((s) => s.id)).toEqual([first.data!.shipment_id]);
  });

  it("the replayed body is the first body exactly, key order included", async () => {
    const m = await freshMerchant();
    const first = await create(m, "create-identical-1");
    const second = await create(m, "create-identical-1");
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expectIdenticalBodies([first.data, second.data]);
  });

  it("the same key with a different body is 422 idempotency_key_reused and changes nothing", async () => {
    const m = await freshMerchant();
    const first = await create(m, "create-reuse-1");
    expect(first.response.status).toBe(201);
    const bodies: S["InboundShipmentCreate"][] = [
      announcement({ merchants_ref: "PO-DIFFERENT" }),
      announcement({
        products: [{ merchants_id: "SKU-1001", name: "Blue T-shirt M", gtin: "6410405082657", qty: 11 }],
      }),
      announcement({ expected_at_wh: "2016-01-20" }),
    ];
    for (const body of bodies) {
      const r = await unchanged(() => create(m, "create-reuse-1", body));
      const error = expectError(r, 422, "idempotency_key_reused");
      expect(error.request_id).toEqual(expect.any(String));
      expect(r.response.headers.get("idempotent-replayed")).toBeNull();
    }
    expect((await listAll(m)).map((s) => s.id)).toEqual([first.data!.shipment_id]);
    // The original is still replayable after the refusals.
    const again = await create(m, "create-reuse-1");
    expect(again.response.status).toBe(201);
    expect(again.data).toEqual(first.data);
  });

  it("the same key used by two merchants is two independent requests", async () => {
    const m1 = await freshMerchant();
    const m2 = await freshMerchant();
    const r1 = await create(m1, "shared-key-1");
    const r2 = await create(m2, "shared-key-1", announcement({ merchants_ref: "PO-OTHER" }));
    expect(r1.response.status).toBe(201);
    expect(r2.response.status).toBe(201);
    expect(r2.response.headers.get("idempotent-replayed")).toBeNull();
    expect(r1.data!.shipment_id).not.toBe(r2.data!.shipment_id);
    expect((await listAll(m1)).map((s) => s.id)).toEqual([r1.data!.shipment_id]);
    expect((await listAll(m2)).map((s) => s.id)).toEqual([r2.data!.shipment_id]);
    expect((await getShipment(m2, r2.data!.shipment_id)).merchants_ref).toBe("PO-OTHER");
  });

  it("the same key and same body by two merchants are not replays of each other either", async () => {
    const m1 = await freshMerchant();
    const m2 = await freshMerchant();
    const r1 = await create(m1, "shared-key-2");
    const r2 = await create(m2, "shared-key-2");
    expect([r1.response.status, r2.response.status]).toEqual([201, 201]);
    expect(r2.response.headers.get("idempotent-replayed")).toBeNull();
    expect(r1.data!.shipment_id).not.toBe(r2.data!.shipment_id);
    expect(await listAll(m2)).toHaveLength(1);
  });

  it("without a key, two identical creates are two shipments", async () => {
    const m = await freshMerchant();
    await createShipment(m);
    await createShipment(m);
    expect(await listAll(m)).toHaveLength(2);
  });

  it("two different keys with the same body are two shipments", async () => {
    const m = await freshMerchant();
    const r1 = await create(m, "distinct-a");
    const r2 = await create(m, "distinct-b");
    expect([r1.response.status, r2.response.status]).toEqual([201, 201]);
    expect(r1.data!.shipment_id).not.toBe(r2.data!.shipment_id);
    expect(await listAll(m)).toHaveLength(2);
  });

  it("key order in the JSON body does not matter: the reordered body is a replay", async () => {
    const m = await freshMerchant();
    const body = announcement({ expected_at_wh: "2016-01-20" });
    const first = await create(m, "reorder-1", body);
    expect(first.response.status).toBe(201);
    const reordered = {
      products: body.products.map((p) => ({ qty: p.qty, gtin: p.gtin, name: p.name, merchants_id: p.merchants_id })),
      expected_at_wh: body.expected_at_wh,
      sender_name: body.sender_name,
      merchants_ref: body.merchants_ref,
    } as S["InboundShipmentCreate"];
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
    const second = await unchanged(() => create(m, "reorder-1", reordered));
    expect(second.response.status).toBe(201);
    expect(second.data).toEqual(first.data);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(await listAll(m)).toHaveLength(1);
  });

  it("the order of product lines does matter: reordered lines are a different request (422)", async () => {
    const m = await freshMerchant();
    const body = announcement();
    expect((await create(m, "line-order-1", body)).response.status).toBe(201);
    const r = await unchanged(() => create(m, "line-order-1", { ...body, products: [...body.products].reverse() }));
    expectError(r, 422, "idempotency_key_reused");
  });

  it("10 concurrent creates with the same key and body make one shipment and 10 identical responses", async () => {
    const m = await srv.merchant("idem-concurrent.example.com");
    const results = await Promise.all(Array.from({ length: 10 }, () => create(m, "concurrent-1")));
    for (const r of results) expect(r.response.status).toBe(201);
    for (const r of results) expect(r.data).toEqual(results[0]!.data);
    expect(results.filter((r) => r.response.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    const items = await listAll(m);
    expect(items.map((s) => s.id)).toEqual([results[0]!.data!.shipment_id]);
    const rows = (await srv.snapshot()).inbound_shipments as { id: string; merchant_id: string }[];
    expect(rows.filter((r) => r.merchant_id === "idem-concurrent.example.com").map((r) => r.id)).toEqual([
      results[0]!.data!.shipment_id,
    ]);
    expectIdenticalBodies(results.map((r) => r.data));
  });

  it("a request that failed (400) does not burn the key: the key then works with a valid body", async () => {
    const m = await freshMerchant();
    const bad = announcement({
      products: [
        { merchants_id: "SKU-1", name: "", gtin: "", qty: 1 },
        { merchants_id: "SKU-1", name: "", gtin: "", qty: 2 },
      ],
    });
    const r1 = await unchanged(() => create(m, "failed-first-1", bad));
    expectError(r1, 400, "validation_failed");
    const r2 = await create(m, "failed-first-1");
    expect(r2.response.status).toBe(201);
    expect(r2.response.headers.get("idempotent-replayed")).toBeNull();
    expect(await listAll(m)).toHaveLength(1);
  });

  it("a key that is not visible ASCII (a space) is 400 and stores nothing", async () => {
    const m = await freshMerchant();
    const r = await unchanged(() => create(m, "has a space"));
    const error = expectError(r, 400, "validation_failed");
    expect(
      error.details.some((d) => /^\/headers?\/idempotency-key$/i.test(d.path)),
      JSON.stringify(error.details),
    ).toBe(true);
    expect(await listAll(m)).toHaveLength(0);
  });

  it("a key of 256 characters is 400 and stores nothing; 255 is accepted", async () => {
    const m = await freshMerchant();
    const r = await unchanged(() => create(m, "k".repeat(256)));
    const error = expectError(r, 400, "validation_failed");
    expect(
      error.details.some((d) => /^\/headers?\/idempotency-key$/i.test(d.path)),
      JSON.stringify(error.details),
    ).toBe(true);
    expect(await listAll(m)).toHaveLength(0);
    expect((await create(m, "k".repeat(255))).response.status).toBe(201);
  });

  it("an empty key is 400", async () => {
    const m = await freshMerchant();
    const r = await unchanged(() =>
      m.POST("/inbound_shipments/_create", {
        params: { header: { "Idempotency-Key": "" } },
        body: announcement(),
      }),
    );
    expectError(r, 400, "validation_failed");
  });
});

describe("arrivals with an Idempotency-Key", () => {
  let m: LogisticsClient;
  beforeAll(async () => {
    const id = "idem-arrivals.example.com";
    await provisionAccount(srv.handle.db, "merchant", id, "idem-arrivals-secret");
    m = srv.client(`M-${id}`, "idem-arrivals-secret");
  });

  it("a retried arrival is counted once and the retry returns the first response", async () => {
    const id = await createShipment(m);
    const arrivals = [{ merchants_id: "SKU-1001", change: 4 }];
    const first = await arrivalsWithKey(id, "arrival-retry-1", arrivals, "2016-01-20T09:12:01+00:00");
    expect(first.response.status).toBe(200);
    const retry = await unchanged(() => arrivalsWithKey(id, "arrival-retry-1", arrivals, "2016-01-20T09:12:01+00:00"));
    expect(retry.response.status).toBe(200);
    expect(retry.response.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.data).toEqual(first.data);
    const s = await getShipment(m, id);
    const l = line(
      "SKU-1001",
      s.products.find((p) => p.product.merchants_id === "SKU-1001"),
    );
    expect(l.arrivedQty).toBe(4);
    expect(l.arrivals).toEqual([
      { ts: "2016-01-20T09:12:01+00:00", change: 4, recorded_by: expect.objectContaining({ type: "warehouse" }) },
    ]);
  });

  it("the replayed arrivals response is the first response exactly, key order included", async () => {
    const id = await createShipment(m);
    const first = await arrivalsWithKey(id, "arrival-identical-1", [{ merchants_id: "SKU-1001", change: 1 }]);
    const second = await arrivalsWithKey(id, "arrival-identical-1", [{ merchants_id: "SKU-1001", change: 1 }]);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expectIdenticalBodies([first.data, second.data]);
  });

  it("a retried arrival without ts (defaults to now) is still counted once", async () => {
    const id = await createShipment(m);
    const results = [];
    for (let i = 0; i < 3; i++)
      results.push(await arrivalsWithKey(id, "arrival-no-ts-1", [{ merchants_id: "SKU-1002", change: 2 }]));
    for (const r of results) expect(r.response.status).toBe(200);
    expect(results[1]!.data).toEqual(results[0]!.data);
    const l = line(
      "SKU-1002",
      (await getShipment(m, id)).products.find((p) => p.product.merchants_id === "SKU-1002"),
    );
    expect(l.arrivedQty).toBe(2);
    expect(l.arrivals).toHaveLength(1);
  });

  it("concurrent retries of one arrival are counted once", async () => {
    const id = await createShipment(m);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        arrivalsWithKey(id, "arrival-concurrent-1", [{ merchants_id: "SKU-1001", change: 1 }]),
      ),
    );
    for (const r of results) expect(r.response.status).toBe(200);
    for (const r of results) expect(r.data).toEqual(results[0]!.data);
    const l = line(
      "SKU-1001",
      (await getShipment(m, id)).products.find((p) => p.product.merchants_id === "SKU-1001"),
    );
    expect(l.arrivedQty).toBe(1);
    expect(l.arrivals).toHaveLength(1);
    expectIdenticalBodies(results.map((r) => r.data));
  });

  it("different keys are different arrivals", async () => {
    const id = await createShipment(m);
    expect((await arrivalsWithKey(id, "arrival-k1", [{ merchants_id: "SKU-1001", change: 1 }])).response.status).toBe(
      200,
    );
    expect((await arrivalsWithKey(id, "arrival-k2", [{ merchants_id: "SKU-1001", change: 1 }])).response.status).toBe(
      200,
    );
    expect((await getShipment(m, id)).products[0]!.arrivedQty).toBe(2);
  });

  it("the same key with another body is 422 and records nothing", async () => {
    const id = await createShipment(m);
    expect(
      (await arrivalsWithKey(id, "arrival-reuse-1", [{ merchants_id: "SKU-1001", change: 1 }])).response.status,
    ).toBe(200);
    const r = await unchanged(() => arrivalsWithKey(id, "arrival-reuse-1", [{ merchants_id: "SKU-1001", change: 2 }]));
    expectError(r, 422, "idempotency_key_reused");
    expect((await getShipment(m, id)).products[0]!.arrivedQty).toBe(1);
  });

  it("the same key on another shipment is 422, not a replay of the first shipment's answer", async () => {
    const id1 = await createShipment(m);
    const id2 = await createShipment(m);
    const body = [{ merchants_id: "SKU-1001", change: 1 }];
    expect((await arrivalsWithKey(id1, "arrival-other-shipment", body)).response.status).toBe(200);
    const r = await unchanged(() => arrivalsWithKey(id2, "arrival-other-shipment", body));
    expectError(r, 422, "idempotency_key_reused");
    expect((await getShipment(m, id2)).products[0]!.arrivedQty).toBe(0);
  });

  it("a request that failed with 409 does not burn the key: the retry is carried out once the state allows it", async () => {
    const id = await createShipment(m);
    const correction = [{ merchants_id: "SKU-1001", change: -1 }];
    const failed = await unchanged(() => arrivalsWithKey(id, "arrival-409-1", correction));
    expectError(failed, 409, "conflict");
    // Something arrives without a key; the correction is now possible.
    expect(
      (
        await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
          params: { path: { shipment_id: id } },
          body: { arrivals: [{ merchants_id: "SKU-1001", change: 3 }] },
        })
      ).response.status,
    ).toBe(200);
    const retried = await arrivalsWithKey(id, "arrival-409-1", correction);
    expect(retried.response.status).toBe(200);
    expect(retried.response.headers.get("idempotent-replayed")).toBeNull();
    const l = line(
      "SKU-1001",
      retried.data!.products.find((p) => p.product.merchants_id === "SKU-1001"),
    );
    expect(l.arrivedQty).toBe(2);
    // And now the key is spent: a further retry replays without a second correction.
    const replay = await unchanged(() => arrivalsWithKey(id, "arrival-409-1", correction));
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect((await getShipment(m, id)).products[0]!.arrivedQty).toBe(2);
  });

  it("a request that failed with 409 invalid_state does not burn the key", async () => {
    const id = await createShipment(m);
    expect(
      (
        await w.POST("/inbound_shipments/{shipment_id}/_status", {
          params: { path: { shipment_id: id } },
          body: { status: "en_route" },
        })
      ).response.status,
    ).toBe(200);
    expect(
      (
        await w.POST("/inbound_shipments/{shipment_id}/_status", {
          params: { path: { shipment_id: id } },
          body: { status: "cancelled" },
        })
      ).response.status,
    ).toBe(200);
    const r = await unchanged(() =>
      arrivalsWithKey(id, "arrival-cancelled-1", [{ merchants_id: "SKU-1001", change: 1 }]),
    );
    expectError(r, 409, "invalid_state");
    const other = await createShipment(m);
    // The key was not stored for the failed request: using it for another request is not a 422.
    const ok = await arrivalsWithKey(other, "arrival-cancelled-1", [{ merchants_id: "SKU-1001", change: 1 }]);
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get("idempotent-replayed")).toBeNull();
  });

  it("an arrivals key with a space or over 255 characters is 400", async () => {
    const id = await createShipment(m);
    for (const key of ["a b", "x".repeat(256)]) {
      const r = await unchanged(() => arrivalsWithKey(id, key, [{ merchants_id: "SKU-1001", change: 1 }]));
      const error = expectError(r, 400, "validation_failed");
      expect(
        error.details.some((d) => /^\/headers?\/idempotency-key$/i.test(d.path)),
        JSON.stringify(error.details),
      ).toBe(true);
    }
  });
});
