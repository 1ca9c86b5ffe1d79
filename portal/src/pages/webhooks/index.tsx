// The Webhooks area: #/webhooks (the endpoints), #/webhooks/<id> (one endpoint and its deliveries) and
// #/webhooks/<id>/deliveries/<delivery id> (one delivery and what it sends).
import { DeliveryView } from "./DeliveryView.tsx";
import { EndpointList } from "./EndpointList.tsx";
import { EndpointView } from "./EndpointView.tsx";

export function Webhooks({ rest }: { rest: string[] }) {
  const [endpointId, sub, deliveryId] = rest;
  if (endpointId && sub === "deliveries" && deliveryId)
    return <DeliveryView key={deliveryId} endpointId={endpointId} id={deliveryId} />;
  if (endpointId) return <EndpointView key={endpointId} id={endpointId} />;
  return <EndpointList />;
}
