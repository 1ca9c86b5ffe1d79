// The shipments as a table on a wide screen, as labelled blocks on a phone (table.stack-on-phone).
import { Link } from "wouter";
import { useWords } from "../../words/index.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import type { InboundShipment } from "../../../../generated/api.ts";

const sum = (s: InboundShipment, of: "qty" | "arrivedQty") => s.products.reduce((n, l) => n + l[of], 0);

export function ShipmentTable({ items }: { items: InboundShipment[] }) {
  const w = useWords();
  const ts = w.t.shipments;
  return (
    <table className="stack-on-phone shipment-list" aria-label={ts.title}>
      <thead>
        <tr>
          <th scope="col">{ts.reference}</th>
          <th scope="col">{ts.sender}</th>
          <th scope="col">{ts.status}</th>
          <th scope="col">{ts.expected}</th>
          <th scope="col">{ts.arrived}</th>
          <th scope="col">{ts.announced}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((s) => (
          <tr key={s.id}>
            <td data-label={ts.reference} className="ref">
              <Link href={`/shipments/${s.id}`}>{s.merchants_ref}</Link>
            </td>
            <td data-label={ts.sender}>{s.sender_name}</td>
            <td data-label={ts.status}>
              <StatusBadge status={s.status} />
            </td>
            <td data-label={ts.expected}>{s.expected_at_wh ? w.day(s.expected_at_wh) : ts.notGiven}</td>
            <td data-label={ts.arrived}>{ts.arrivedOf(w.number(sum(s, "arrivedQty")), w.number(sum(s, "qty")))}</td>
            <td data-label={ts.announced}>{w.date(s.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
