// How a shipment's status changed, oldest first, and who changed it.
import { useQuery } from "@tanstack/react-query";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { statusHistoryQuery } from "./data.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import { useApi } from "../../app/session.ts";

export function StatusTimeline({ id }: { id: string }) {
  const w = useWords();
  const ts = w.t.shipments;
  const api = useApi();
  const history = useQuery(statusHistoryQuery(api, id));
  if (history.isPending) return <p aria-busy="true">{ts.loadingTimeline}</p>;
  if (history.isError) return <ProblemBanner problems={{ message: ts.timelineFailed, fields: {} }} quiet />;
  return (
    <ol aria-label={ts.timeline} className="timeline">
      {history.data.items.map((t, i) => (
        <li key={i}>
          <StatusBadge status={t.to} /> <span className="muted">{w.t.changedBy[t.by]}</span>
          <br />
          <small>{w.date(t.at)}</small>
        </li>
      ))}
    </ol>
  );
}
