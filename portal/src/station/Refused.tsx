// Scans that wait for a person's decision: refused by the service (the shipment deleted, closed meanwhile, a key
// reused, or input it would not take), or older than the service remembers a request (24 hours), which is never sent
// without asking. Each says what happened and what to do: send again, or discard.
import type { RefusalKind, StationWords } from "../words/station-words.ts";
import type { CountLine } from "./match.ts";
import { isStale, type Batch, type Outbox, type Refusal } from "./queue.ts";

/** What a refusal means for the person: the shipment removed by the merchant (deleted, or gone), finished or
 * cancelled meanwhile, a key reused, not allowed, or input the service would not take. */
export function refusalKind(r: Refusal): RefusalKind {
  if (r.status === 404 || r.now === "deleted") return "removed";
  if (r.status === 409) return "closed";
  if (r.status === 422) return "reused";
  if (r.status === 403) return "forbidden";
  return "rejected";
}

export function Refused({
  s,
  batches,
  lines,
  outbox,
}: {
  s: StationWords;
  batches: Batch[];
  lines: CountLine[];
  outbox: Outbox;
}) {
  const waiting = batches.filter((b) => b.refused || isStale(b));
  if (waiting.length === 0) return null;
  return (
    <section aria-label={s.refusedTitle} className="refused">
      <h2>{s.refusedTitle}</h2>
      <ul>
        {waiting.map((b) => {
          const what = b.body.arrivals.map((a) => {
            const name = a.name || lines.find((l) => l.merchants_id === a.merchants_id)?.name || a.merchants_id;
            return `${name} ${a.change > 0 ? "+" : ""}${a.change}`;
          });
          const why = b.refused ? s.refusal[refusalKind(b.refused)] : s.stale;
          return (
            <li key={b.seq}>
              <p>
                <strong>{what.join(", ")}</strong>
              </p>
              <p role="alert">{why}</p>
              <div className="actions">
                {(!b.refused || refusalKind(b.refused) === "closed") && (
                  <button type="button" onClick={() => void outbox.retryBatch(b.seq)}>
                    {s.sendAgain}
                  </button>
                )}
                <button type="button" className="secondary" onClick={() => void outbox.discard(b.seq)}>
                  {s.discard}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
