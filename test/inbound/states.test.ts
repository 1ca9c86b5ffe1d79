// Every status x every move: legal moves succeed, every illegal one is 409 invalid_state naming the status.
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { useTestAccounts, type TestServer } from "../helpers/server.ts";
import { arrive, expectError, getShipment, moveTo } from "../helpers/fixtures.ts";
import { ALL_STATUSES, shipmentIn, type Status } from "../helpers/statuses.ts";
import {
  BEFORE_PROCESSING,
  MERCHANT_MOVES,
  MODIFIABLE,
  RECEIVING,
  WAREHOUSE_MOVES,
} from "../../server/inbound/states.ts";

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
useTestAccounts((s) => ({ srv, m, w } = s));

// The table is the server's own (states.ts): whatever it says, the HTTP answers must do, for every status.
const WAREHOUSE: Record<string, readonly Status[]> = WAREHOUSE_MOVES;
const MERCHANT: Record<keyof typeof MERCHANT_MOVES, readonly Status[]> = MERCHANT_MOVES;

const warehouseCases = Object.entries(WAREHOUSE).flatMap(([target, from]) =>
  ALL_STATUSES.map((s) => [s, target, from.includes(s)] as const),
);

describe("warehouse status changes", () => {
  it.each(warehouseCases)("%s -> %s allowed: %s", async (from, target, allowed) => {
    const id = await shipmentIn(from, m, w);
    const body =
      target === "problem"
        ? {
            status: "problem" as const,
            problems: [{ type: "product.not_ok" as const, merchants_id: "SKU-1001", description: "Wrong colour" }],
          }
        : { status: target as Exclude<Status, "problem" | "initial" | "confirmed" | "deleted"> };
    const before = await srv.snapshot();
    const res = await moveTo(w, id, body);
    if (allowed) {
      expect(res.response.status, JSON.stringify(res.error)).toBe(200);
      expect(res.data!.status).toBe(target);
      expect((await getShipment(m, id)).status).toBe(target);
    } else {
      const err = expectError(res, 409, "invalid_state");
      expect(err.message).toContain(`status ${from}`);
      expect(await srv.snapshot()).toEqual(before);
    }
  });
});

describe("merchant moves", () => {
  it.each(ALL_STATUSES)("confirm from %s", async (from) => {
    const id = await shipmentIn(from, m, w);
    const res = await m.POST("/inbound_shipments/{shipment_id}/_confirm", { params: { path: { shipment_id: id } } });
    if (MERCHANT.confirmed.includes(from)) {
      expect(res.data).toEqual({ success: true, shipment_id: id, status: "confirmed" });
    } else {
      expect(expectError(res, 409, "invalid_state").message).toContain(`status ${from}`);
      expect((await getShipment(m, id)).status).toBe(from);
    }
  });

  it.each(ALL_STATUSES)("delete (DELETE and POST _delete) from %s", async (from) => {
    for (const viaPost of [false, true]) {
      const id = await shipmentIn(from, m, w);
      const path = { params: { path: { shipment_id: id } } };
      const res = viaPost
        ? await m.POST("/inbound_shipments/{shipment_id}/_delete", path)
        : await m.DELETE("/inbound_shipments/{shipment_id}", path);
      if (MERCHANT.deleted.includes(from)) {
        expect(res.data).toEqual({ success: true, shipment_id: id, status: "deleted" });
        expect((await getShipment(m, id)).status).toBe("deleted");
      } else {
        expect(expectError(res, 409, "invalid_state").message).toContain(`status ${from}`);
        expect((await getShipment(m, id)).status).toBe(from);
      }
    }
  });

  it.each(ALL_STATUSES)("modify in %s", async (from) => {
    const id = await shipmentIn(from, m, w);
    const res = await m.POST("/inbound_shipments/{shipment_id}", {
      params: { path: { shipment_id: id } },
      body: { expected_at_wh: "2030-05-01" },
    });
    if (MODIFIABLE.includes(from)) {
      expect(res.response.status).toBe(200);
      expect((await getShipment(m, id)).expected_at_wh).toBe("2030-05-01");
    } else {
      expectError(res, 409, "invalid_state");
      expect((await getShipment(m, id)).expected_at_wh).toBeNull();
    }
  });

  it.each(ALL_STATUSES)("arrivals in %s", async (from) => {
    const id = await shipmentIn(from, m, w);
    const before = await getShipment(m, id);
    const res = await arrive(w, id, [{ merchants_id: "SKU-1002", change: 1 }]);
    if (RECEIVING.includes(from)) {
      expect(res.response.status).toBe(200);
      // The first arrival moves a shipment that is not yet being processed to processing.
      expect(res.data!.status).toBe(BEFORE_PROCESSING.includes(from) ? "processing" : from);
    } else {
      expectError(res, 409, "invalid_state");
      expect(await getShipment(m, id)).toEqual(before);
    }
  });
});

describe("status history and events", () => {
  it("records each change and writes outbox events in the same transaction", async () => {
    const id = await shipmentIn("initial", m, w);
    await moveTo(w, id, { status: "arrived_at_warehouse" });
    await arrive(w, id, [
      { merchants_id: "SKU-1001", change: 10 },
      { merchants_id: "SKU-1002", change: 5 },
    ]);
    await moveTo(w, id, { status: "processed" });
    const history = await srv.handle.db
      .selectFrom("inbound_status_history")
      .select(["from_status", "to_status"])
      .where("shipment_id", "=", id)
      .orderBy("id")
      .execute();
    expect(history).toEqual([
      { from_status: null, to_status: "initial" },
      { from_status: "initial", to_status: "arrived_at_warehouse" },
      { from_status: "arrived_at_warehouse", to_status: "processing" },
      { from_status: "processing", to_status: "processed" },
    ]);
    const events = await srv.handle.db
      .selectFrom("webhook_events")
      .select(["event_type", "payload"])
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    const mine = events.filter((e) => JSON.stringify(e.payload).includes(id)).map((e) => e.event_type);
    expect(mine).toEqual([
      "inbound_shipment.status_changed",
      "inbound_shipment.arrived_at_warehouse",
      "inbound_shipment.status_changed",
      "inbound_shipment.items_arrived",
      "inbound_shipment.status_changed",
      "inbound_shipment.processed",
    ]);
  });
});
