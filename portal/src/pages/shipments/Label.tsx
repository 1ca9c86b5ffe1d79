// The receiving label of a shipment: the API's printable page (GET /inbound_shipments/{id}/label), opened in a tab
// of its own in the person's language, on a parcel label's paper or a sheet. The session's cookie goes with it.
import { useWords } from "../../words/index.ts";
import { BASE_PATH } from "../../../../generated/base-path.ts";
import type { InboundShipment } from "../../../../generated/api.ts";

export function ShipmentLabel({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
  const href = (size: "a6" | "a4") =>
    `${BASE_PATH}/inbound_shipments/${encodeURIComponent(shipment.id)}/label?size=${size}&lang=${w.lang}`;
  return (
    <section aria-labelledby="label-title" className="shipment-label">
      <h2 id="label-title">{w.t.label.title}</h2>
      <p>{w.t.label.about}</p>
      <p className="buttons">
        <a href={href("a6")} target="_blank" rel="noopener" className="button-link">
          {w.t.label.a6}
        </a>
        <a href={href("a4")} target="_blank" rel="noopener" className="button-link secondary">
          {w.t.label.a4}
        </a>
      </p>
    </section>
  );
}
