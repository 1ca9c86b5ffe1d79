// The addresses events are sent to: a warning for each one we stopped sending to, the list, and a form to add
// one (its signing secret shown once).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { formatTime, type S } from "../../api.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { stateWords, stoppedBecause, WHAT_NOW } from "../endpoint-state.ts";
import { keys, useEndpoints } from "./data.ts";
import { EventChoice } from "./EventChoice.tsx";
import { SecretOnce } from "./Secret.tsx";
import { useWords } from "../../words/index.ts";
import { formProblems } from "./words.ts";
import type { WebhookEventType } from "../../../../generated/api.ts";

export function EndpointList() {
  const api = useApi();
  const { t, lang } = useWords();
  const client = useQueryClient();
  const endpoints = useEndpoints();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>(["inbound_shipment.items_arrived"]);
  const create = useMutation({
    mutationFn: (body: S["WebhookEndpointCreate"]) => unwrap(api.POST("/webhook_endpoints/_create", { body })),
    onSuccess: async () => {
      setUrl("");
      await client.invalidateQueries({ queryKey: keys.endpoints });
    },
  });
  const problems = formProblems(create.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ url: url.trim(), event_types: events });
  };
  const items = endpoints.data?.items;
  return (
    <section>
      <hgroup>
        <h1>Webhooks</h1>
        <p>
          Endpoints are the web addresses of your systems that we send events to. Here you see them and how each
          delivery went.
        </p>
      </hgroup>
      {create.data && (
        <SecretOnce
          title="Signing secret of the new endpoint"
          secret={create.data.secret}
          onDone={() => create.reset()}
        >
          <p>
            Your system uses this secret to check that events for {create.data.url} come from us. It is shown only now:
            copy it into your system's settings.
          </p>
        </SecretOnce>
      )}
      {items
        ?.filter((ep) => stoppedBecause(ep))
        .map((ep) => (
          <article key={ep.id} role="alert" aria-label={`Events are not being sent to ${ep.url}`}>
            <strong className="wrap-anywhere">Events are not being sent to {ep.url}</strong>
            <p>{stoppedBecause(ep)}</p>
            <p>
              {WHAT_NOW} <Link href={`/webhooks/${ep.id}`}>Open this endpoint</Link>
            </p>
          </article>
        ))}
      {endpoints.isError && <ProblemBanner problems={{ message: endpoints.error.message, fields: {} }} />}
      {endpoints.isPending && <p aria-busy="true">Loading…</p>}
      {items && items.length > 0 && (
        <table className="stack-on-phone webhooks-table" aria-label="Endpoints">
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Events</th>
              <th scope="col">State</th>
              <th scope="col">Added</th>
            </tr>
          </thead>
          <tbody>
            {items.map((ep) => (
              <tr key={ep.id}>
                <td data-label="Address" className="wrap-anywhere">
                  <Link href={`/webhooks/${ep.id}`}>{ep.url}</Link>
                </td>
                <td data-label="Events" lang={lang}>
                  {ep.event_types.map((type) => t.eventTypes[type]).join("; ")}
                </td>
                <td data-label="State">{stateWords(ep)}</td>
                <td data-label="Added">{formatTime(ep.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {items?.length === 0 && <p className="muted">No endpoints yet: add the first one below.</p>}
      <form onSubmit={submit} noValidate aria-label="New endpoint">
        <h2>Add an endpoint</h2>
        <Field label="Web address of your receiving system" path="/body/url" problems={problems}>
          {(p) => (
            <input
              {...p}
              type="url"
              value={url}
              placeholder="https://erp.example.com/hooks/logistics"
              onChange={(e) => setUrl(e.target.value)}
            />
          )}
        </Field>
        <EventChoice chosen={events} onChange={setEvents} problems={problems} />
        <ProblemBanner problems={problems} shown={["/body/url", "/body/event_types"]} />
        <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
          Add endpoint
        </button>
      </form>
    </section>
  );
}
