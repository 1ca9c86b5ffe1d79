// What has arrived of a shipment, oldest first: one row per product per arrival (a correction is a minus).
import { useWords } from "../../words/index.ts";
import type { InboundShipment } from "../../../../generated/api.ts";

export function ShipmentArrivals({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
  const arrivals = shipment.products
    .flatMap((l) => l.arrivals.map((a) => ({ ...a, product: l.product })))
    .sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  if (arrivals.length === 0) return <p className="muted">Nothing has arrived yet.</p>;
  return (
    <table className="stack-on-phone" aria-label="Arrivals">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Product</th>
          <th scope="col">Items</th>
        </tr>
      </thead>
      <tbody>
        {arrivals.map((a, i) => (
          <tr key={i}>
            <td data-label="When">{w.date(a.ts)}</td>
            <td data-label="Product">{a.product.name || a.product.merchants_id}</td>
            <td data-label="Items">{a.change > 0 ? `+${w.number(a.change)}` : `${w.number(a.change)} (correction)`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
