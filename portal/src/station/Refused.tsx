// Scans that wait for a person's decision: refused by the service (the shipment deleted, closed meanwhile, a key
// reused, or input it would not take), or older than the service remembers a request (24 hours), which is never sent
// without asking. Each says what happened and what to do: send again, or discard.
import type { StationWords } from "../words/station-words.ts";
import type { CountLine } from "./match.ts";
import { isStale, type Batch, type Outbox } from "./queue.ts";

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
          const why = b.refused ? s.refusal(b.refused.status, b.refused.code) : s.stale;
          return (
            <li key={b.seq}>
              <p>
                <strong>{what.join(", ")}</strong>
              </p>
              <p role="alert">{why}</p>
              <div className="actions">
                {(!b.refused || b.refused.status === 409) && (
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
