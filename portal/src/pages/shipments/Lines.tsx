// A shipment's product lines: what was announced and how much of it has arrived.
import { useWords } from "../../words/index.ts";
import type { InboundShipment } from "../../../../generated/api.ts";

export function ShipmentLines({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
  const ts = w.t.shipments;
  const priced = shipment.products.some((l) => l.purchasePrice !== undefined);
  return (
    <table className="stack-on-phone" aria-label={ts.products}>
      <thead>
        <tr>
          <th scope="col">{ts.product}</th>
          <th scope="col">{ts.productCode}</th>
          <th scope="col">{ts.gtin}</th>
          <th scope="col">{ts.announced}</th>
          <th scope="col">{ts.arrived}</th>
          {priced && <th scope="col">{ts.purchasePrice}</th>}
        </tr>
      </thead>
      <tbody>
        {shipment.products.map((l) => (
          <tr key={l.product.id}>
            <td data-label={ts.product}>{l.product.name || ts.noName}</td>
            <td data-label={ts.productCode} className="wrap-anywhere">
              {l.product.merchants_id}
            </td>
            <td data-label={ts.gtin}>{l.product.gtin || ts.noGtin}</td>
            <td data-label={ts.announced}>{w.number(l.qty)}</td>
            <td data-label={ts.arrived}>{w.number(l.arrivedQty)}</td>
            {priced && <td data-label={ts.purchasePrice}>{w.money(l.purchasePrice)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
