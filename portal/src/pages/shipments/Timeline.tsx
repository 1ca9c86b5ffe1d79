// How a shipment's status changed, oldest first, and who changed it.
import { useWords } from "../../words/index.ts";
import { useStatusHistory } from "./data.ts";
import { StatusBadge } from "./StatusBadge.tsx";

export function StatusTimeline({ id }: { id: string }) {
  const w = useWords();
  const history = useStatusHistory(id);
  if (history.isPending) return <p aria-busy="true">Loading the timeline…</p>;
  if (history.isError)
    return <p className="problem">The timeline could not be loaded: reload the page to try again.</p>;
  return (
    <ol aria-label="Status timeline" className="timeline">
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
