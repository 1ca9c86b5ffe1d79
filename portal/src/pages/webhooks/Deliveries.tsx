// An endpoint's delivery log: each event in words with the shipment it is about, how its delivery went and why it
// failed; rows on their way refresh by themselves; "Retry now" on rows that are waiting or failed.
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { problemsOf } from "../../app/data.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { deliveriesQuery, useRetry } from "./data.ts";
import { failureWords, whenWords } from "./words.ts";
import type { WebhookDelivery } from "../../../../generated/api.ts";
import { useApi } from "../../app/session.ts";

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
  const api = useApi();
  const deliveries = useQuery(deliveriesQuery(api, endpointId));
  const retry = useRetry();
  const w = useWords();
  const { t } = w;
  const tw = t.webhooks;
  const items = deliveries.data?.items;
  const retried = superseded(items ?? []);
  return (
    <section aria-labelledby="deliveries-title">
      <div className="heading-row">
        <h2 id="deliveries-title">{tw.deliveries}</h2>
        <button
          type="button"
          className="outline fit"
          aria-busy={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          {tw.refresh}
        </button>
      </div>
      <p className="muted">{tw.deliveriesAbout}</p>
      {retry.isSuccess && <p role="status">{retry.data}</p>}
      <ProblemBanner problems={problemsOf(w, retry.error, "redeliverWebhook")} />
      <ProblemBanner problems={problemsOf(w, deliveries.error, "listWebhookDeliveries")} />
      {deliveries.isPending && <p aria-busy="true">{t.common.loading}</p>}
      {items && items.length > 0 && (
        <table className="stack-on-phone webhooks-table deliveries" aria-label={tw.deliveries}>
          <thead>
            <tr>
              <th scope="col">{tw.event}</th>
              <th scope="col">{tw.status}</th>
              <th scope="col">{tw.whyFailed}</th>
              <th scope="col">
                <span className="visually-hidden">{tw.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => {
              const what = tw.eventOf(t.eventTypes[d.event_type], w.date(d.created_at));
              const failure = failureWords(d, w);
              return (
                <tr key={d.id}>
                  <td data-label={tw.event}>
                    <span>{t.eventTypes[d.event_type]}</span>
                    <br />
                    <small className="muted nowrap">{w.date(d.created_at)}</small>
                    {d.shipment && (
                      <>
                        <br />
                        <Link href={`/shipments/${d.shipment.id}`}>{tw.shipment(d.shipment.merchants_ref)}</Link>
                      </>
                    )}
                  </td>
                  <td data-label={tw.status}>
                    <span className={`status ${d.status}`}>
                      <span>{t.deliveryStatuses[d.status]}</span>
                    </span>
                    <br />
                    <small>{whenWords(d, w)}</small>
                  </td>
                  <td data-label={tw.whyFailed} className={failure || retried.has(d.id) ? undefined : "nothing"}>
                    {failure ?? <span className="muted">—</span>}
                    {retried.has(d.id) && (
                      <>
                        <br />
                        <small className="muted">{tw.sentAgainSince}</small>
                      </>
                    )}
                  </td>
                  <td className="actions">
                    <Link href={`/webhooks/${endpointId}/deliveries/${d.id}`} aria-label={tw.detailsOf(what)}>
                      {tw.details}
                    </Link>
                    {enabled && d.status !== "succeeded" && !retried.has(d.id) && (
                      <button
                        type="button"
                        className="outline"
                        aria-label={tw.retryOf(what)}
                        aria-busy={retry.isPending && retry.variables?.id === d.id}
                        disabled={retry.isPending}
                        onClick={() => retry.mutate(d)}
                      >
                        {tw.retry}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {items?.length === 0 && <p className="muted">{tw.nothingSent}</p>}
    </section>
  );
}
