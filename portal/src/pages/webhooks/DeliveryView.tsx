// One delivery: the event in words and the shipment it is about, how it went and why it failed, "Retry now", and
// exactly what we send (the JSON body, pretty-printed in a box of its own). Refreshes by itself while on its way.
import { Link } from "wouter";
import { formatTime } from "../../api.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { useDelivery, useEndpoint, useRetry } from "./data.ts";
import { failureWords, whenWords } from "./words.ts";

export function DeliveryView({ endpointId, id }: { endpointId: string; id: string }) {
  const endpoint = useEndpoint(endpointId);
  const delivery = useDelivery(id);
  const retry = useRetry();
  const { t, lang } = useWords();
  if (delivery.isPending) return <p aria-busy="true">Loading…</p>;
  if (delivery.isError) return <ProblemBanner problems={{ message: delivery.error.message, fields: {} }} />;
  const d = delivery.data;
  const failure = failureWords(d, t);
  const canRetry = endpoint.data?.enabled === true;
  return (
    <section>
      <nav aria-label="Breadcrumb">
        <ul>
          <li>
            <Link href="/webhooks">Webhooks</Link>
          </li>
          <li className="wrap-anywhere">
            <Link href={`/webhooks/${endpointId}`}>{endpoint.data?.url ?? "Endpoint"}</Link>
          </li>
          <li>Delivery</li>
        </ul>
      </nav>
      <hgroup>
        <h1 lang={lang}>{t.eventTypes[d.event_type]}</h1>
        <p>
          <span className={`status ${d.status}`}>
            <span lang={lang}>{t.deliveryStatuses[d.status]}</span>
          </span>{" "}
          {whenWords(d)}
        </p>
      </hgroup>
      <dl className="facts">
        <dt>Happened</dt>
        <dd>{formatTime(d.created_at)}</dd>
        {d.shipment && (
          <>
            <dt>Shipment</dt>
            <dd>
              <Link href={`/shipments/${d.shipment.id}`}>Shipment {d.shipment.merchants_ref}</Link>
            </dd>
          </>
        )}
        <dt>Tries</dt>
        <dd>{d.attempts}</dd>
        {failure && (
          <>
            <dt>Why it failed</dt>
            <dd>{failure}</dd>
          </>
        )}
      </dl>
      {canRetry && (
        <button
          type="button"
          className="fit"
          aria-busy={retry.isPending}
          disabled={retry.isPending}
          onClick={() => retry.mutate(d)}
        >
          {d.status === "succeeded" ? "Send it again" : "Retry now"}
        </button>
      )}
      {retry.isSuccess && <p role="status">{retry.data}</p>}
      {retry.isError && <ProblemBanner problems={{ message: retry.error.message, fields: {} }} />}
      <h2 id="payload-title">What we send</h2>
      <p className="muted">The content of this event exactly as your system receives it (for your developer).</p>
      <pre className="payload" tabIndex={0} role="region" aria-labelledby="payload-title">
        <code>{JSON.stringify(d.payload, null, 2)}</code>
      </pre>
      {(d.last_response_status !== null || d.last_error || d.last_response_excerpt) && (
        <details>
          <summary>Technical details of the last try (for your developer)</summary>
          <dl className="facts">
            {d.last_response_status !== null && (
              <>
                <dt>Answer status</dt>
                <dd>{d.last_response_status}</dd>
              </>
            )}
            {d.last_duration_ms !== null && (
              <>
                <dt>Time taken</dt>
                <dd>{d.last_duration_ms} ms</dd>
              </>
            )}
            {d.last_error && (
              <>
                <dt>Error</dt>
                <dd className="wrap-anywhere">{d.last_error}</dd>
              </>
            )}
            {d.last_response_excerpt && (
              <>
                <dt>The answer began with</dt>
                <dd>
                  <pre className="excerpt">{d.last_response_excerpt}</pre>
                </dd>
              </>
            )}
          </dl>
        </details>
      )}
    </section>
  );
}
