// Brings a fresh shipment into any status through the public API only.
import { expect } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { arrive, createShipment, moveTo } from "./fixtures.ts";

export type Status = components["schemas"]["InboundShipmentStatus"];
export const ALL_STATUSES: Status[] = [
  "initial",
  "confirmed",
  "en_route",
  "arrived_at_warehouse",
  "processing",
  "problem",
  "processed",
  "cancelled",
  "deleted",
];

const ok = async (p: Promise<{ response: Response; error?: unknown }>) => {
  const r = await p;
  expect(r.response.status, JSON.stringify(r.error)).toBeLessThan(300);
};

export async function shipmentIn(status: Status, m: LogisticsClient, w: LogisticsClient): Promise<string> {
  const id = await createShipment(m);
  const path = { params: { path: { shipment_id: id } } };
  switch (status) {
    case "initial":
      break;
    case "confirmed":
      await ok(m.POST("/inbound_shipments/{shipment_id}/_confirm", path));
      break;
    case "deleted":
      await ok(m.DELETE("/inbound_shipments/{shipment_id}", path));
      break;
    case "en_route":
    case "arrived_at_warehouse":
    case "cancelled":
      await ok(moveTo(w, id, { status }));
      break;
    case "processing":
      await ok(
        arrive(w, id, [
          { merchants_id: "SKU-1001", change: 10 },
          { merchants_id: "SKU-1002", change: 5 },
        ]),
      );
      break;
    case "problem":
      await ok(moveTo(w, id, { status: "en_route" }));
      await ok(moveTo(w, id, { status: "problem", problems: [{ type: "damaged", description: "Pallet dropped" }] }));
      break;
    case "processed":
      await ok(
        arrive(w, id, [
          { merchants_id: "SKU-1001", change: 10 },
          { merchants_id: "SKU-1002", change: 5 },
        ]),
      );
      await ok(moveTo(w, id, { status: "processed" }));
      break;
  }
  return id;
}
