// The addresses events are sent to: a warning for each one we stopped sending to, the list, and a form to add
// one (its signing secret shown once).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import type { S } from "../../api.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { stateWords, stoppedBecause } from "../endpoint-state.ts";
import { endpointsQuery, keys } from "./data.ts";
import { EventChoice } from "./EventChoice.tsx";
import { SecretOnce } from "./Secret.tsx";
import { useWords } from "../../words/index.ts";
import type { WebhookEventType } from "../../../../generated/api.ts";

export function EndpointList() {
  const api = useApi();
  const w = useWords();
  const { t } = w;
  const tw = t.webhooks;
  const client = useQueryClient();
  const endpoints = useQuery(endpointsQuery(api));
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>(["inbound_shipment.items_arrived"]);
  const create = useMutation({
    mutationFn: (body: S["WebhookEndpointCreate"]) => unwrap(api.POST("/webhook_endpoints/_create", { body })),
    onSuccess: async () => {
      setUrl("");
      await client.invalidateQueries({ queryKey: keys.endpoints });
    },
  });
  const problems = problemsOf(w, create.error, "createWebhookEndpoint");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ url: url.trim(), event_types: events });
  };
  const items = endpoints.data?.items;
  return (
    <section>
      <hgroup>
        <h1>{tw.title}</h1>
        <p>{tw.about}</p>
      </hgroup>
      {create.data && (
        <SecretOnce title={tw.newSecretTitle} secret={create.data.secret} onDone={() => create.reset()}>
          <p>{tw.newSecretAbout(create.data.url)}</p>
        </SecretOnce>
      )}
      {items
        ?.filter((ep) => stoppedBecause(ep, w))
        .map((ep) => (
          <article key={ep.id} role="alert" aria-label={tw.notSentTo(ep.url)}>
            <strong className="wrap-anywhere">{tw.notSentTo(ep.url)}</strong>
            <p>{stoppedBecause(ep, w)}</p>
            <p>
              {tw.whatNow} <Link href={`/webhooks/${ep.id}`}>{tw.openEndpoint}</Link>
            </p>
          </article>
        ))}
      <ProblemBanner problems={problemsOf(w, endpoints.error, "listWebhookEndpoints")} />
      {endpoints.isPending && <p aria-busy="true">{t.common.loading}</p>}
      {items && items.length > 0 && (
        <table className="stack-on-phone webhooks-table" aria-label={tw.endpoints}>
          <thead>
            <tr>
              <th scope="col">{tw.address}</th>
              <th scope="col">{tw.events}</th>
              <th scope="col">{tw.state}</th>
              <th scope="col">{tw.added}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((ep) => (
              <tr key={ep.id}>
                <td data-label={tw.address} className="wrap-anywhere">
                  <Link href={`/webhooks/${ep.id}`}>{ep.url}</Link>
                </td>
                <td data-label={tw.events}>{ep.event_types.map((type) => t.eventTypes[type]).join("; ")}</td>
                <td data-label={tw.state}>{stateWords(ep, w)}</td>
                <td data-label={tw.added}>{w.date(ep.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {items?.length === 0 && <p className="muted">{tw.noEndpoints}</p>}
      <form onSubmit={submit} noValidate aria-label={tw.newEndpoint}>
        <h2>{tw.addTitle}</h2>
        <Field label={tw.url} path="/body/url" problems={problems}>
          {(p) => (
            <input {...p} type="url" value={url} placeholder={tw.urlExample} onChange={(e) => setUrl(e.target.value)} />
          )}
        </Field>
        <EventChoice chosen={events} onChange={setEvents} problems={problems} />
        <ProblemBanner problems={problems} shown={["/body/url", "/body/event_types"]} />
        <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
          {tw.add}
        </button>
      </form>
    </section>
  );
}
