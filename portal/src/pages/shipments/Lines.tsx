// A shipment's product lines: what was announced and how much of it has arrived.
import { useWords } from "../../words/index.ts";
import type { InboundShipment } from "../../../../generated/api.ts";

export function ShipmentLines({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
  const priced = shipment.products.some((l) => l.purchasePrice !== undefined);
  return (
    <table className="stack-on-phone" aria-label="Products">
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Product code</th>
          <th scope="col">GTIN</th>
          <th scope="col">Announced</th>
          <th scope="col">Arrived</th>
          {priced && <th scope="col">Purchase price</th>}
        </tr>
      </thead>
      <tbody>
        {shipment.products.map((l) => (
          <tr key={l.product.id}>
            <td data-label="Product">{l.product.name || "No name given"}</td>
            <td data-label="Product code" className="wrap-anywhere">
              {l.product.merchants_id}
            </td>
            <td data-label="GTIN">{l.product.gtin || "None"}</td>
            <td data-label="Announced">{w.number(l.qty)}</td>
            <td data-label="Arrived">{w.number(l.arrivedQty)}</td>
            {priced && <td data-label="Purchase price">{w.money(l.purchasePrice)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
