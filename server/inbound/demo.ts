// The demo merchant's inbound shipment, partly arrived, so that the portal has something to show at once.
import type { Principal } from "../accounts/domain.ts";
import type { Tx } from "../db/transaction.ts";
import { createShipment } from "./announcements.ts";
import { listShipments } from "./queries.ts";
import { recordArrivals } from "./warehouse.ts";

export const DEMO_SHIPMENT_REF = "DEMO-PO-1";

/** Announces the demo shipment and records two arrivals, once: a re-seed leaves an existing one as it is. */
export async function seedDemoShipment(trx: Tx, merchant: Principal, operator: Principal): Promise<void> {
  const existing = await listShipments(trx, merchant, {
    merchants_ref: DEMO_SHIPMENT_REF,
    limit: 1,
    sort: "updated_at",
  });
  if (existing.items.length > 0) return;
  const { shipment_id } = await createShipment(trx, merchant, {
    merchants_ref: DEMO_SHIPMENT_REF,
    sender_name: "Acme Supplies Oy",
    products: [
      { merchants_id: "SKU-1", name: "Blue T-shirt M", gtin: "6410405082657", qty: 10 },
      { merchants_id: "SKU-2", name: "Red hoodie L", qty: 4 },
    ],
  });
  await recordArrivals(trx, operator, shipment_id, {
    arrivals: [
      { merchants_id: "SKU-1", change: 6 },
      { merchants_id: "SKU-2", change: 4 },
    ],
  });
  await recordArrivals(trx, operator, shipment_id, { arrivals: [{ merchants_id: "SKU-1", change: 2 }] });
}
