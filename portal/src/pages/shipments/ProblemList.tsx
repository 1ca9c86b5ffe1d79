// What the warehouse found wrong with a shipment, and whether it is sorted out.
import { useWords } from "../../words/index.ts";
import type { InboundShipment } from "../../../../generated/api.ts";

export function ProblemList({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
  const ts = w.t.shipments;
  if (shipment.problems.length === 0) return <p className="muted">{ts.noProblems}</p>;
  return (
    <ul aria-label={ts.problems} className="shipment-problems">
      {shipment.problems.map((p) => (
        <li key={p.id}>
          <strong>{w.t.problemTypes[p.type]}</strong>
          {p.merchants_id && ts.ofProduct(p.merchants_id)}: {p.description}
          <br />
          <small className="muted">
            {p.resolved ? ts.sortedOut(w.date(p.resolved_at)) : ts.openSince(w.date(p.created_at))}
          </small>
        </li>
      ))}
    </ul>
  );
}
