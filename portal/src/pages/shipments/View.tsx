// One shipment: its status and dates, what the shop may do with it now, its product lines, what has arrived,
// how its status changed, and any problems the warehouse reported. All in plain words and one date format.
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { problemsOf } from "../../app/data.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { ShipmentActions } from "./Actions.tsx";
import { ShipmentArrivals } from "./Arrivals.tsx";
import { shipmentQuery, useTimelineFollows } from "./data.ts";
import { takesArrivals } from "./live.ts";
import { ShipmentLabel } from "./Label.tsx";
import { ShipmentLines } from "./Lines.tsx";
import { ProblemList } from "./ProblemList.tsx";
import { StatusBadge } from "./StatusBadge.tsx";
import { StatusTimeline } from "./Timeline.tsx";
import type { InboundShipment } from "../../../../generated/api.ts";
import { useApi } from "../../app/session.ts";

export function ShipmentView({ id }: { id: string }) {
  const w = useWords();
  const ts = w.t.shipments;
  const api = useApi();
  const shipment = useQuery(shipmentQuery(api, id, { live: true }));
  if (shipment.isPending) return <p aria-busy="true">{ts.loadingOne}</p>;
  if (shipment.isError)
    return (
      <section>
        <ProblemBanner problems={problemsOf(w, shipment.error, "getInboundShipment")} />
        <Link href="/shipments">{ts.backToList}</Link>
      </section>
    );
  return <Loaded shipment={shipment.data} />;
}

function Loaded({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
  useTimelineFollows(shipment.id, shipment.updated_at);
  const ts = w.t.shipments;
  return (
    <section className="shipment">
      <nav aria-label={w.t.common.breadcrumb}>
        <ul>
          <li>
            <Link href="/shipments">{ts.title}</Link>
          </li>
          <li className="wrap-anywhere">{shipment.merchants_ref}</li>
        </ul>
      </nav>
      <hgroup>
        <h1 className="wrap-anywhere">{shipment.merchants_ref}</h1>
        <p>{ts.from(shipment.sender_name)}</p>
      </hgroup>
      <dl className="facts">
        <dt>{ts.status}</dt>
        <dd>
          <StatusBadge status={shipment.status} />
        </dd>
        <dt>{ts.expectedAtWarehouse}</dt>
        <dd>{shipment.expected_at_wh ? w.day(shipment.expected_at_wh) : ts.notGiven}</dd>
        <dt>{ts.announced}</dt>
        <dd>{w.date(shipment.created_at)}</dd>
        <dt>{ts.lastChange}</dt>
        <dd>{w.date(shipment.updated_at)}</dd>
      </dl>
      <ShipmentActions shipment={shipment} />
      <ShipmentLabel shipment={shipment} />
      <h2>{ts.products}</h2>
      <ShipmentLines shipment={shipment} />
      <ShipmentArrivals shipment={shipment} live={takesArrivals(shipment.status)} />
      <h2>{ts.timeline}</h2>
      <StatusTimeline id={shipment.id} />
      <h2>{ts.problems}</h2>
      <ProblemList shipment={shipment} />
    </section>
  );
}
