// An endpoint's delivery log: each event in words with the shipment it is about, how its delivery went and why it
// failed; rows on their way refresh by themselves; "Retry now" on rows that are waiting or failed.
import { Link } from "wouter";
import { formatTime } from "../../api.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { useDeliveries, useRetry } from "./data.ts";
import { failureWords, whenWords } from "./words.ts";
import type { WebhookDelivery } from "../../../../generated/api.ts";

/** Deliveries that a newer delivery of the same event (a retry) has taken over. */
function superseded(items: WebhookDelivery[]): Set<string> {
  const seen = new Set<string>();
  const older = new Set<string>();
  for (const d of items) {
    // Newest first: an event seen already has a newer delivery.
    if (seen.has(d.event_id)) older.add(d.id);
    seen.add(d.event_id);
  }
  return older;
}

export function Deliveries({ endpointId, enabled }: { endpointId: string; enabled: boolean }) {
  const deliveries = useDeliveries(endpointId);
  const retry = useRetry();
  const { t, lang } = useWords();
  const items = deliveries.data?.items;
  const retried = superseded(items ?? []);
  return (
    <section aria-labelledby="deliveries-title">
      <div className="heading-row">
        <h2 id="deliveries-title">Deliveries</h2>
        <button
          type="button"
          className="outline fit"
          aria-busy={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          Refresh
        </button>
      </div>
      <p className="muted">
        The newest first. Deliveries on their way update by themselves; we try a failed one again for about a day.
      </p>
      {retry.isSuccess && <p role="status">{retry.data}</p>}
      {retry.isError && <ProblemBanner problems={{ message: retry.error.message, fields: {} }} />}
      {deliveries.isError && <ProblemBanner problems={{ message: deliveries.error.message, fields: {} }} />}
      {deliveries.isPending && <p aria-busy="true">Loading…</p>}
      {items && items.length > 0 && (
        <table className="stack-on-phone webhooks-table deliveries" aria-label="Deliveries">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Why it failed</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => {
              const what = `${t.eventTypes[d.event_type]} of ${formatTime(d.created_at)}`;
              const failure = failureWords(d, t);
              return (
                <tr key={d.id}>
                  <td data-label="Event">
                    <span lang={lang}>{t.eventTypes[d.event_type]}</span>
                    <br />
                    <small className="muted nowrap">{formatTime(d.created_at)}</small>
                    {d.shipment && (
                      <>
                        <br />
                        <Link href={`/shipments/${d.shipment.id}`}>Shipment {d.shipment.merchants_ref}</Link>
                      </>
                    )}
                  </td>
                  <td data-label="Status">
                    <span className={`status ${d.status}`}>
                      <span lang={lang}>{t.deliveryStatuses[d.status]}</span>
                    </span>
                    <br />
                    <small>{whenWords(d)}</small>
                  </td>
                  <td data-label="Why it failed" className={failure || retried.has(d.id) ? undefined : "nothing"}>
                    {failure ?? <span className="muted">—</span>}
                    {retried.has(d.id) && (
                      <>
                        <br />
                        <small className="muted">Sent again since: see the newer row.</small>
                      </>
                    )}
                  </td>
                  <td className="actions">
                    <Link href={`/webhooks/${endpointId}/deliveries/${d.id}`} aria-label={`Details: ${what}`}>
                      Details
                    </Link>
                    {enabled && d.status !== "succeeded" && !retried.has(d.id) && (
                      <button
                        type="button"
                        className="outline"
                        aria-label={`Retry now: ${what}`}
                        aria-busy={retry.isPending && retry.variables?.id === d.id}
                        disabled={retry.isPending}
                        onClick={() => retry.mutate(d)}
                      >
                        Retry now
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {items?.length === 0 && <p className="muted">Nothing sent yet.</p>}
    </section>
  );
}
