// One endpoint: why we stopped sending (if we did), the events it receives, turning sending off (after a
// confirmation) and on, a test event, a new signing secret (after a confirmation, shown once with how long the old
// one keeps working), and its delivery log.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Confirm, useConfirm } from "../../parts/Confirm.tsx";
import { ProblemBanner } from "../../parts/fields.tsx";
import { stateWords, stoppedBecause } from "../endpoint-state.ts";
import { endpointQuery, keys } from "./data.ts";
import { Deliveries } from "./Deliveries.tsx";
import { EventChoice } from "./EventChoice.tsx";
import { SecretOnce } from "./Secret.tsx";
import { ROTATION_OVERLAP_HOURS } from "./words.ts";
import { useWords } from "../../words/index.ts";
import type { WebhookEndpoint, WebhookEventType } from "../../../../generated/api.ts";

type Action = { call: () => Promise<unknown>; done: string };

export function EndpointView({ id }: { id: string }) {
  const api = useApi();
  const endpoint = useQuery(endpointQuery(api, id));
  const w = useWords();
  if (endpoint.isPending) return <p aria-busy="true">{w.t.common.loading}</p>;
  if (endpoint.isError) return <ProblemBanner problems={problemsOf(w, endpoint.error, "getWebhookEndpoint")} />;
  return <Loaded endpoint={endpoint.data} />;
}

function Loaded({ endpoint }: { endpoint: WebhookEndpoint }) {
  const api = useApi();
  const client = useQueryClient();
  const w = useWords();
  const tw = w.t.webhooks;
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
  const problems = problemsOf(w, act.error ?? rotate.error, "updateWebhookEndpoint");
  const stopped = stoppedBecause(endpoint, w);
  const run = (a: Action) => {
    // A new secret stays on screen until "I have stored it": it is never shown again.
    if (rotate.isError) rotate.reset();
    act.mutate(a);
  };
  const turnOff = () => {
    confirm.close();
    run({
      call: () => unwrap(api.POST("/webhook_endpoints/{webhook_id}", { ...path, body: { enabled: false } })),
      done: tw.turnedOff,
    });
  };
  const overlapUntil = rotate.data
    ? w.date(new Date(Date.parse(rotate.data.updated_at) + ROTATION_OVERLAP_HOURS * 3600_000).toISOString())
    : "";

  return (
    <section>
      <nav aria-label={w.t.common.breadcrumb}>
        <ul>
          <li>
            <Link href="/webhooks">{tw.title}</Link>
          </li>
          <li className="wrap-anywhere">{endpoint.url}</li>
        </ul>
      </nav>
      <hgroup>
        <h1 className="wrap-anywhere endpoint-title">{endpoint.url}</h1>
        <p>{stateWords(endpoint, w)}</p>
      </hgroup>
      {stopped && (
        <article role="alert" aria-label={tw.notSent}>
          <strong>{tw.notSentHere}</strong>
          <p>{stopped}</p>
          <p>{tw.whatNow}</p>
        </article>
      )}
      {rotate.data && (
        <SecretOnce title={tw.rotatedTitle} secret={rotate.data.secret} onDone={() => rotate.reset()}>
          <p>{tw.rotatedAbout(ROTATION_OVERLAP_HOURS, overlapUntil)}</p>
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
                  done: tw.testSent,
                })
              }
            >
              {tw.sendTest}
            </button>
            <button type="button" className="fit secondary outline" onClick={() => confirm.ask("off")}>
              {tw.turnOff}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="fit"
            onClick={() =>
              run({
                call: () => unwrap(api.POST("/webhook_endpoints/{webhook_id}", { ...path, body: { enabled: true } })),
                done: tw.turnedOn,
              })
            }
          >
            {tw.turnOn}
          </button>
        )}
        <button type="button" className="fit secondary outline" onClick={() => confirm.ask("rotate")}>
          {tw.rotate}
        </button>
      </div>
      <ProblemBanner problems={problems} shown={["/body/event_types"]} />
      {act.isSuccess && <p role="status">{act.data}</p>}
      <form
        noValidate
        className="endpoint-events"
        aria-label={tw.thisEndpointsEvents}
        onSubmit={(e) => {
          e.preventDefault();
          run({
            call: () => unwrap(api.POST("/webhook_endpoints/{webhook_id}", { ...path, body: { event_types: events } })),
            done: tw.eventsSaved,
          });
        }}
      >
        <EventChoice chosen={events} onChange={setEvents} problems={problems} />
        <button type="submit" className="fit">
          {tw.saveEvents}
        </button>
      </form>
      {confirm.pending === "off" && (
        <Confirm
          title={tw.turnOffQuestion}
          confirmLabel={tw.turnOff}
          destructive
          onConfirm={turnOff}
          onCancel={confirm.close}
        >
          <p className="wrap-anywhere">{tw.turnOffWhat(endpoint.url)}</p>
          <p>{tw.turnOffAfter}</p>
        </Confirm>
      )}
      {confirm.pending === "rotate" && (
        <Confirm
          title={tw.rotateQuestion}
          confirmLabel={tw.rotateConfirm}
          busy={rotate.isPending}
          onConfirm={() => {
            act.reset();
            rotate.mutate();
          }}
          onCancel={confirm.close}
        >
          <p>{tw.rotateWhat(ROTATION_OVERLAP_HOURS)}</p>
        </Confirm>
      )}
      <Deliveries endpointId={endpoint.id} enabled={endpoint.enabled} />
    </section>
  );
}
