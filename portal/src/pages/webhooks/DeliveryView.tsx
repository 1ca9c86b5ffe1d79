// One delivery: the event in words and the shipment it is about, how it went and why it failed, "Retry now", and
// exactly what we send (the JSON body, pretty-printed in a box of its own). Refreshes by itself while on its way.
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { problemsOf } from "../../app/data.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { deliveryQuery, endpointQuery, useRetry } from "./data.ts";
import { failureWords, whenWords } from "./words.ts";
import { useApi } from "../../app/session.ts";

export function DeliveryView({ endpointId, id }: { endpointId: string; id: string }) {
  const api = useApi();
  const endpoint = useQuery(endpointQuery(api, endpointId));
  const delivery = useQuery(deliveryQuery(api, id));
  const retry = useRetry();
  const w = useWords();
  const { t } = w;
  const tw = t.webhooks;
  if (delivery.isPending) return <p aria-busy="true">{t.common.loading}</p>;
  if (delivery.isError) return <ProblemBanner problems={problemsOf(w, delivery.error, "getWebhookDelivery")} />;
  const d = delivery.data;
  const failure = failureWords(d, w);
  const canRetry = endpoint.data?.enabled === true;
  return (
    <section>
      <nav aria-label={t.common.breadcrumb}>
        <ul>
          <li>
            <Link href="/webhooks">{tw.title}</Link>
          </li>
          <li className="wrap-anywhere">
            <Link href={`/webhooks/${endpointId}`}>{endpoint.data?.url ?? tw.endpoint}</Link>
          </li>
          <li>{tw.delivery}</li>
        </ul>
      </nav>
      <hgroup>
        <h1>{t.eventTypes[d.event_type]}</h1>
        <p>
          <span className={`status ${d.status}`}>
            <span>{t.deliveryStatuses[d.status]}</span>
          </span>{" "}
          {whenWords(d, w)}
        </p>
      </hgroup>
      <dl className="facts">
        <dt>{tw.happened}</dt>
        <dd>{w.date(d.created_at)}</dd>
        {d.shipment && (
          <>
            <dt>{tw.shipmentLabel}</dt>
            <dd>
              <Link href={`/shipments/${d.shipment.id}`}>{tw.shipment(d.shipment.merchants_ref)}</Link>
            </dd>
          </>
        )}
        <dt>{tw.tries}</dt>
        <dd>{d.attempts}</dd>
        {failure && (
          <>
            <dt>{tw.whyFailed}</dt>
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
          {d.status === "succeeded" ? tw.sendAgain : tw.retry}
        </button>
      )}
      {retry.isSuccess && <p role="status">{retry.data}</p>}
      <ProblemBanner problems={problemsOf(w, retry.error, "redeliverWebhook")} />
      <h2 id="payload-title">{tw.whatWeSend}</h2>
      <p className="muted">{tw.whatWeSendAbout}</p>
      <pre className="payload" tabIndex={0} role="region" aria-labelledby="payload-title">
        <code>{JSON.stringify(d.payload, null, 2)}</code>
      </pre>
      {(d.last_response_status !== null || d.last_error || d.last_response_excerpt) && (
        <details>
          <summary>{tw.technical}</summary>
          <dl className="facts">
            {d.last_response_status !== null && (
              <>
                <dt>{tw.answerStatus}</dt>
                <dd>{d.last_response_status}</dd>
              </>
            )}
            {d.last_duration_ms !== null && (
              <>
                <dt>{tw.timeTaken}</dt>
                <dd>{tw.milliseconds(d.last_duration_ms)}</dd>
              </>
            )}
            {d.last_error && (
              <>
                <dt>{tw.error}</dt>
                <dd className="wrap-anywhere">{d.last_error}</dd>
              </>
            )}
            {d.last_response_excerpt && (
              <>
                <dt>{tw.answerBegan}</dt>
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
