// One endpoint: why we stopped sending (if we did), the events it receives, turning sending off (after a
// confirmation) and on, a test event, a new signing secret (after a confirmation, shown once with how long the old
// one keeps working), and its delivery log.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { formatTime } from "../../api.ts";
import { Confirm, useConfirm } from "../../parts/Confirm.tsx";
import { ProblemBanner } from "../../parts/fields.tsx";
import { stateWords, stoppedBecause, WHAT_NOW } from "../endpoint-state.ts";
import { keys, useEndpoint } from "./data.ts";
import { Deliveries } from "./Deliveries.tsx";
import { EventChoice } from "./EventChoice.tsx";
import { SecretOnce } from "./Secret.tsx";
import { formProblems, ROTATION_OVERLAP_HOURS } from "./words.ts";
import type { WebhookEndpoint, WebhookEventType } from "../../../../generated/api.ts";

type Action = { call: () => Promise<unknown>; done: string };

export function EndpointView({ id }: { id: string }) {
  const endpoint = useEndpoint(id);
  if (endpoint.isPending) return <p aria-busy="true">Loading…</p>;
  if (endpoint.isError) return <ProblemBanner problems={{ message: endpoint.error.message, fields: {} }} />;
  return <Loaded endpoint={endpoint.data} />;
}

function Loaded({ endpoint }: { endpoint: WebhookEndpoint }) {
  const api = useApi();
  const client = useQueryClient();
  const path = { params: { path: { webhook_id: endpoint.id } } };
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint.event_types);
  // Back to what is saved when that changes, not at every refetch (a choice being made stays).
  const saved = endpoint.event_types.join(" ");
  useEffect(() => setEvents(saved.split(" ") as WebhookEventType[]), [saved]);
  const confirm = useConfirm<"off" | "rotate">();

  const act = useMutation({
    mutationFn: async ({ call, done }: Action) => {
      await call();
      return done;
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
  const rotate = useMutation({
    mutationFn: () => unwrap(api.POST("/webhook_endpoints/{webhook_id}/_rotate_secret", path)),
    onSettled: () => confirm.close(),
  });
  const problems = formProblems(act.error ?? rotate.error);
  const stopped = stoppedBecause(endpoint);
  const run = (a: Action) => {
    // A new secret stays on screen until "I have stored it": it is never shown again.
    if (rotate.isError) rotate.reset();
    act.mutate(a);
  };
  const turnOff = () => {
    confirm.close();
    run({
      call: () => unwrap(api.POST("/webhook_endpoints/{webhook_id}", { ...path, body: { enabled: false } })),
      done: "Sending turned off.",
    });
  };
  const overlapUntil = rotate.data
    ? formatTime(new Date(Date.parse(rotate.data.updated_at) + ROTATION_OVERLAP_HOURS * 3600_000).toISOString())
    : "";

  return (
    <section>
      <nav aria-label="Breadcrumb">
        <ul>
          <li>
            <Link href="/webhooks">Webhooks</Link>
          </li>
          <li className="wrap-anywhere">{endpoint.url}</li>
        </ul>
      </nav>
      <hgroup>
        <h1 className="wrap-anywhere endpoint-title">{endpoint.url}</h1>
        <p>{stateWords(endpoint)}</p>
      </hgroup>
      {stopped && (
        <article role="alert" aria-label="Events are not being sent">
          <strong>Events are not being sent to this endpoint</strong>
          <p>{stopped}</p>
          <p>{WHAT_NOW}</p>
        </article>
      )}
      {rotate.data && (
        <SecretOnce title="New signing secret" secret={rotate.data.secret} onDone={() => rotate.reset()}>
          <p>
            It is shown only now: copy it into your system's settings. The old secret keeps working for{" "}
            {ROTATION_OVERLAP_HOURS} hours, until {overlapUntil}: until then every event is signed with both, so your
            system accepts events while you switch it over. After that, only the new secret works.
          </p>
        </SecretOnce>
      )}
      <div className="row actions-row">
        {endpoint.enabled ? (
          <>
            <button
              type="button"
              className="fit secondary"
              onClick={() =>
                run({
                  call: () => unwrap(api.POST("/webhook_endpoints/{webhook_id}/_test", path)),
                  done: "A test event is on its way: see Deliveries below.",
                })
              }
            >
              Send test event
            </button>
            <button type="button" className="fit secondary outline" onClick={() => confirm.ask("off")}>
              Turn sending off
            </button>
          </>
        ) : (
          <button
            type="button"
            className="fit"
            onClick={() =>
              run({
                call: () => unwrap(api.POST("/webhook_endpoints/{webhook_id}", { ...path, body: { enabled: true } })),
                done: "Sending turned back on.",
              })
            }
          >
            Turn sending back on
          </button>
        )}
        <button type="button" className="fit secondary outline" onClick={() => confirm.ask("rotate")}>
          Make a new signing secret
        </button>
      </div>
      <ProblemBanner problems={problems} shown={["/body/event_types"]} />
      {act.isSuccess && <p role="status">{act.data}</p>}
      <form
        noValidate
        className="endpoint-events"
        aria-label="Events of this endpoint"
        onSubmit={(e) => {
          e.preventDefault();
          run({
            call: () => unwrap(api.POST("/webhook_endpoints/{webhook_id}", { ...path, body: { event_types: events } })),
            done: "Events saved.",
          });
        }}
      >
        <EventChoice chosen={events} onChange={setEvents} problems={problems} />
        <button type="submit" className="fit">
          Save events
        </button>
      </form>
      {confirm.pending === "off" && (
        <Confirm
          title="Turn sending off?"
          confirmLabel="Turn sending off"
          destructive
          onConfirm={turnOff}
          onCancel={confirm.close}
        >
          <p className="wrap-anywhere">We stop sending events to {endpoint.url}.</p>
          <p>
            Events that happen while it is off are not sent later. Deliveries already waiting are held until you turn
            sending back on.
          </p>
        </Confirm>
      )}
      {confirm.pending === "rotate" && (
        <Confirm
          title="Make a new signing secret?"
          confirmLabel="Make a new secret"
          busy={rotate.isPending}
          onConfirm={() => {
            act.reset();
            rotate.mutate();
          }}
          onCancel={confirm.close}
        >
          <p>
            We make a new secret and show it to you once. For {ROTATION_OVERLAP_HOURS} hours we sign every event with
            both the old and the new secret, so your system keeps accepting events while you switch it over. After that,
            only the new secret works.
          </p>
        </Confirm>
      )}
      <Deliveries endpointId={endpoint.id} enabled={endpoint.enabled} />
    </section>
  );
}
