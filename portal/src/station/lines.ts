// A shipment's lines as the station counts them: the service's arrived counts plus this person's scans waiting in
// the queue (refused ones do not count), and the products not on the notice that those scans add.
import type { CountLine } from "./match.ts";
import type { Batch } from "./queue.ts";
import type { WarehouseInboundShipment } from "../../../generated/api.ts";

export function countLines(shipment: WarehouseInboundShipment, batches: Batch[]): CountLine[] {
  const lines: CountLine[] = shipment.lines.map((l) => ({
    merchants_id: l.merchants_id,
    name: l.name,
    gtin: l.gtin,
    qty: l.qty,
    counted: l.arrivedQty,
    unsent: 0,
  }));
  for (const b of batches) {
    if (b.shipment_id !== shipment.id || b.refused) continue;
    for (const a of b.body.arrivals) {
      let line = lines.find((l) => l.merchants_id === a.merchants_id);
      if (!line) {
        line = { merchants_id: a.merchants_id, name: a.name ?? "", gtin: a.gtin ?? "", qty: 0, counted: 0, unsent: 0 };
        lines.push(line);
      }
      line.unsent += a.change;
    }
  }
  return lines;
}

/** Scans of this shipment not sent yet (refused ones wait for a decision, and are not counted). */
export const unsentOf = (shipmentId: string, batches: Batch[]) =>
  batches.filter((b) => b.shipment_id === shipmentId && !b.refused).length;
