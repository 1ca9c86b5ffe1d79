// One shipment: its status and dates, what the shop may do with it now, its product lines, what has arrived,
// how its status changed, and any problems the warehouse reported. All in plain words and one date format.
import { Link } from "wouter";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { ShipmentActions } from "./Actions.tsx";
import { ShipmentArrivals } from "./Arrivals.tsx";
import { useShipment, useTimelineFollows } from "./data.ts";
import { takesArrivals } from "./live.ts";
import { ShipmentLabel } from "./Label.tsx";
import { ShipmentLines } from "./Lines.tsx";
import { ProblemList } from "./ProblemList.tsx";
import { problemWords } from "./problems.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import { StatusTimeline } from "./Timeline.tsx";
import type { InboundShipment } from "../../../../generated/api.ts";

export function ShipmentView({ id }: { id: string }) {
  const w = useWords();
  const shipment = useShipment(id, { live: true });
  if (shipment.isPending) return <p aria-busy="true">Loading the shipment…</p>;
  if (shipment.isError)
    return (
      <section>
        <ProblemBanner problems={problemWords(w, shipment.error, "getInboundShipment")} />
        <Link href="/shipments">Back to the shipments</Link>
      </section>
    );
  return <Loaded shipment={shipment.data} />;
}

function Loaded({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
  useTimelineFollows(shipment.id, shipment.updated_at);
  return (
    <section className="shipment">
      <nav aria-label="Breadcrumb">
        <ul>
          <li>
            <Link href="/shipments">Shipments</Link>
          </li>
          <li className="wrap-anywhere">{shipment.merchants_ref}</li>
        </ul>
      </nav>
      <hgroup>
        <h1 className="wrap-anywhere">{shipment.merchants_ref}</h1>
        <p>From {shipment.sender_name}</p>
      </hgroup>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={shipment.status} />
        </dd>
        <dt>Expected at the warehouse</dt>
        <dd>{shipment.expected_at_wh ? w.day(shipment.expected_at_wh) : "Not given"}</dd>
        <dt>Announced</dt>
        <dd>{w.date(shipment.created_at)}</dd>
        <dt>Last change</dt>
        <dd>{w.date(shipment.updated_at)}</dd>
      </dl>
      <ShipmentActions shipment={shipment} />
      <ShipmentLabel shipment={shipment} />
      <h2>Products</h2>
      <ShipmentLines shipment={shipment} />
      <ShipmentArrivals shipment={shipment} live={takesArrivals(shipment.status)} />
      <h2>Status timeline</h2>
      <StatusTimeline id={shipment.id} />
      <h2>Problems</h2>
      <ProblemList shipment={shipment} />
    </section>
  );
}
