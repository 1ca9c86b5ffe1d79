// The shipments as a table on a wide screen, as labelled blocks on a phone (table.stack-on-phone).
import { Link } from "wouter";
import { useWords } from "../../words/index.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import type { InboundShipment } from "../../../../generated/api.ts";

const sum = (s: InboundShipment, of: "qty" | "arrivedQty") => s.products.reduce((n, l) => n + l[of], 0);

export function ShipmentTable({ items }: { items: InboundShipment[] }) {
  const w = useWords();
  return (
    <table className="stack-on-phone shipment-list" aria-label="Shipments">
      <thead>
        <tr>
          <th scope="col">Reference</th>
          <th scope="col">Sender</th>
          <th scope="col">Status</th>
          <th scope="col">Expected</th>
          <th scope="col">Arrived</th>
          <th scope="col">Announced</th>
        </tr>
      </thead>
      <tbody>
        {items.map((s) => (
          <tr key={s.id}>
            <td data-label="Reference" className="ref">
              <Link href={`/shipments/${s.id}`}>{s.merchants_ref}</Link>
            </td>
            <td data-label="Sender">{s.sender_name}</td>
            <td data-label="Status">
              <StatusBadge status={s.status} />
            </td>
            <td data-label="Expected">{s.expected_at_wh ? w.day(s.expected_at_wh) : "Not given"}</td>
            <td data-label="Arrived">
              {w.number(sum(s, "arrivedQty"))} of {w.number(sum(s, "qty"))}
            </td>
            <td data-label="Announced">{w.date(s.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
