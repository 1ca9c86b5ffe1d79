// The Shipments area: #/shipments (the list, its filters in the address), #/shipments/new (announce),
// #/shipments/<id> (one shipment and what may be done with it) and #/shipments/<id>/edit (modify it).
import { ShipmentForm } from "./Form.tsx";
import { ShipmentList } from "./List.tsx";
import { ShipmentView } from "./View.tsx";

export function Shipments({ rest }: { rest: string[] }) {
  const [id, sub] = rest;
  if (id === "new") return <ShipmentForm key="new" />;
  if (id && sub === "edit") return <ShipmentForm key={`edit-${id}`} id={id} />;
  if (id) return <ShipmentView key={id} id={id} />;
  return <ShipmentList />;
}
