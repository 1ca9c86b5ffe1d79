// A shipment's status in the catalogue's plain words, as a badge coloured by the status.
import { useWords } from "../../words/index.ts";
import type { InboundShipmentStatus } from "../../../../generated/api.ts";

export function StatusBadge({ status }: { status: InboundShipmentStatus }) {
  const w = useWords();
  return <span className={`status ${status}`}>{w.t.statuses[status]}</span>;
}
