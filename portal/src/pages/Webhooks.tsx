// Webhook endpoints (create with the secret shown once, edit events, disable, rotate the secret, send a test
// event) and each endpoint's delivery log, with the failure in words and a Redeliver button.
import { signedOut } from "../app/data.ts";
import { useApi } from "../app/session.ts";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { formatTime, problemsOf, type Api, type Problems, type S } from "../api.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";
import { stateWords, stoppedBecause, WHAT_NOW } from "./endpoint-state.ts";

type Endpoint = S["WebhookEndpoint"];
const EVENT_TYPES: S["WebhookEventType"][] = [
  "inbound_shipment.items_arrived",
  "inbound_shipment.arrived_at_warehouse",
  "inbound_shipment.processed",
  "inbound_shipment.status_changed",
  "webhook.test",
];

/** What a person can do about each failure class. */
export const FAILURE_WORDS: Record<S["WebhookFailureClass"], string> = {
  dns: "The host name does not resolve: check the URL's host.",
  refused: "Nothing accepts connections there: is your receiver running, on this port?",
  connection: "The connection was reset or closed before an answer.",
  tls: "A secure connection could not be made: check your endpoint's certificate.",
  timeout: "Your endpoint did not answer in time: answer 2xx first, then do the work.",
  destination_refused: "The address is private or otherwise not allowed.",
  redirect: "Your endpoint answered with a redirect; redirects are not followed: use the final URL.",
  http_4xx: "Your endpoint refused the delivery: check its sign-in settings and its signature check.",
  http_5xx: "Your endpoint had an error while receiving it: see its logs.",
  gone: "Your endpoint answered that this address is no longer in use, so we stopped sending events to it.",
  invalid_response: "The answer was not HTTP.",
};

interface Props {
  api: Api;
  route: string[];
  onExpired: () => void;
}

export function Webhooks({ rest: route }: { rest: string[] }) {
  const api = useApi();
  const onExpired = signedOut;
  return route[0] ? (
    <EndpointView api={api} id={route[0]} onExpired={onExpired} />
  ) : (
    <EndpointList api={api} onExpired={onExpired} />
  );
}

function EventChoice({
  chosen,
  onChange,
  problems,
}: {
  chosen: S["WebhookEventType"][];
  onChange: (c: S["WebhookEventType"][]) => void;
  problems?: Problems;
}) {
  const message = problems?.fields["/body/event_types"];
  return (
    <fieldset aria-invalid={message ? true : undefined}>
      <legend>Events</legend>
      {EVENT_TYPES.map((t) => (
        <label key={t}>
          <input
            type="checkbox"
            checked={chosen.includes(t)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, t] : chosen.filter((x) => x !== t))}
          />{" "}
          {t}
        </label>
      ))}
      {message && <small className="field-error">{message}</small>}
    </fieldset>
  );
}

function EndpointList({ api, onExpired }: Omit<Props, "route">) {
  const [endpoints, setEndpoints] = useState<Endpoint[]>();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<S["WebhookEventType"][]>(["inbound_shipment.items_arrived"]);
  const [problems, setProblems] = useState<Problems>();
  const [secret, setSecret] = useState<{ url: string; secret: string }>();

  const load = useCallback(async () => {
    const r = await api.GET("/webhook_endpoints", { params: { query: { limit: 100 } } });
    if (r.response.status === 401) return onExpired();
    if (r.data) setEndpoints(r.data.items);
  }, [api, onExpired]);
  useEffect(() => void load(), [load]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const r = await api.POST("/webhook_endpoints/_create", { body: { url, event_types: events } });
    if (r.response.status === 401) return onExpired();
    setProblems(problemsOf(r.error));
    if (r.data) {
      setSecret({ url: r.data.url, secret: r.data.secret });
      setUrl("");
      await load();
    }
  };
  return (
    <section>
      <hgroup>
        <h1>Webhooks</h1>
        <p>Where we send events, and how each delivery went.</p>
      </hgroup>
      {secret && (
        <article role="status" aria-label="New signing secret">
          <p>The signing secret of {secret.url}. It is shown only now: store it in your receiver's configuration.</p>
          <pre>
            <code>{secret.secret}</code>
          </pre>
          <button type="button" className="secondary" onClick={() => setSecret(undefined)}>
            I have stored it
          </button>
        </article>
      )}
      {endpoints
        ?.filter((ep) => stoppedBecause(ep))
        .map((ep) => (
          <article key={ep.id} role="alert" aria-label={`Events are not being sent to ${ep.url}`}>
            <strong>Events are not being sent to {ep.url}</strong>
            <p>{stoppedBecause(ep)}</p>
            <p>
              {WHAT_NOW} <a href={`#/webhooks/${ep.id}`}>Open this endpoint</a>
            </p>
          </article>
        ))}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {endpoints?.map((ep) => (
              <tr key={ep.id}>
                <td>
                  <a href={`#/webhooks/${ep.id}`}>{ep.url}</a>
                </td>
                <td>{ep.event_types.join(", ")}</td>
                <td>{stateWords(ep)}</td>
                <td>{formatTime(ep.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {endpoints?.length === 0 && <p className="muted">No endpoints yet.</p>}
      <form onSubmit={create} noValidate aria-label="New endpoint">
        <h2>Add an endpoint</h2>
        <Field label="Endpoint URL" path="/body/url" problems={problems}>
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
        <button type="submit">Add endpoint</button>
      </form>
    </section>
  );
}

function EndpointView({ api, id, onExpired }: { api: Api; id: string; onExpired: () => void }) {
  const [endpoint, setEndpoint] = useState<Endpoint>();
  const [deliveries, setDeliveries] = useState<S["WebhookDelivery"][]>();
  const [events, setEvents] = useState<S["WebhookEventType"][]>([]);
  const [problems, setProblems] = useState<Problems>();
  const [notice, setNotice] = useState<string>();
  const path = { params: { path: { webhook_id: id } } };

  const load = useCallback(async () => {
    const [ep, log] = await Promise.all([
      api.GET("/webhook_endpoints/{webhook_id}", { params: { path: { webhook_id: id } } }),
      api.GET("/webhook_endpoints/{webhook_id}/deliveries", {
        params: { path: { webhook_id: id }, query: { limit: 50 } },
      }),
    ]);
    if (ep.response.status === 401) return onExpired();
    if (!ep.data) return setProblems(problemsOf(ep.error));
    setEndpoint(ep.data);
    setEvents(ep.data.event_types);
    setDeliveries(log.data?.items);
  }, [api, id, onExpired]);
  useEffect(() => void load(), [load]);

  const act = async (what: string, call: () => Promise<{ error?: unknown; response: Response }>) => {
    const r = await call();
    if (r.response.status === 401) return onExpired();
    setProblems(problemsOf(r.error));
    if (!r.error) setNotice(what);
    await load();
  };
  if (!endpoint) return problems ? <ProblemBanner problems={problems} /> : <p aria-busy="true">Loading…</p>;
  return (
    <section>
      <nav aria-label="Breadcrumb">
        <ul>
          <li>
            <a href="#/webhooks">Webhooks</a>
          </li>
          <li>{endpoint.url}</li>
        </ul>
      </nav>
      <hgroup>
        <h1>{endpoint.url}</h1>
        <p>{stateWords(endpoint)}</p>
      </hgroup>
      {stoppedBecause(endpoint) && (
        <article role="alert" aria-label="Events are not being sent">
          <strong>Events are not being sent to this endpoint</strong>
          <p>{stoppedBecause(endpoint)}</p>
          <p>{WHAT_NOW}</p>
        </article>
      )}
      <form
        noValidate
        aria-label="Endpoint"
        onSubmit={(e) => {
          e.preventDefault();
          void act("Events saved.", () =>
            api.POST("/webhook_endpoints/{webhook_id}", { ...path, body: { event_types: events } }),
          );
        }}
      >
        <EventChoice chosen={events} onChange={setEvents} problems={problems} />
        <div className="row">
          <button type="submit" className="fit">
            Save events
          </button>
          <button
            type="button"
            className="fit secondary"
            onClick={() =>
              void act(endpoint.enabled ? "Sending turned off." : "Sending turned back on.", () =>
                api.POST("/webhook_endpoints/{webhook_id}", { ...path, body: { enabled: !endpoint.enabled } }),
              )
            }
          >
            {endpoint.enabled ? "Turn sending off" : "Turn sending back on"}
          </button>
          <button
            type="button"
            className="fit secondary"
            onClick={() =>
              void act("A test event is on its way.", () => api.POST("/webhook_endpoints/{webhook_id}/_test", path))
            }
          >
            Send test event
          </button>
          <button
            type="button"
            className="fit outline"
            onClick={async () => {
              const r = await api.POST("/webhook_endpoints/{webhook_id}/_rotate_secret", path);
              if (r.data) setNotice(`New signing secret (shown only now): ${r.data.secret}`);
              else setProblems(problemsOf(r.error));
            }}
          >
            Rotate secret
          </button>
        </div>
      </form>
      <ProblemBanner problems={problems} shown={["/body/event_types"]} />
      {notice && <p role="status">{notice}</p>}
      <h2>Deliveries</h2>
      <button type="button" className="outline" onClick={() => void load()}>
        Refresh
      </button>
      <div className="table-wrap">
        <table aria-label="Deliveries">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last attempt</th>
              <th scope="col">Why</th>
              <th scope="col">
                <span className="muted">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries?.map((d) => (
              <tr key={d.id}>
                <td>
                  {d.event_type}
                  <br />
                  <small className="muted">{formatTime(d.created_at)}</small>
                </td>
                <td>
                  <span className={`status ${d.status}`}>{d.status}</span>
                </td>
                <td>{d.attempts}</td>
                <td>
                  {formatTime(d.last_attempt_at)}
                  {d.last_response_status !== null && <> · HTTP {d.last_response_status}</>}
                  {d.last_duration_ms !== null && <> · {d.last_duration_ms} ms</>}
                  {d.status === "pending" && d.next_attempt_at && (
                    <>
                      <br />
                      <small className="muted">next {formatTime(d.next_attempt_at)}</small>
                    </>
                  )}
                </td>
                <td>
                  {d.failure_class ? <>{FAILURE_WORDS[d.failure_class]}</> : "—"}
                  {d.last_error && (
                    <>
                      <br />
                      <small className="muted">{d.last_error}</small>
                    </>
                  )}
                  {d.last_response_excerpt && <pre className="excerpt">{d.last_response_excerpt}</pre>}
                </td>
                <td>
                  {d.status !== "pending" && (
                    <button
                      type="button"
                      className="outline"
                      aria-label={`Redeliver ${d.event_type} of ${formatTime(d.created_at)}`}
                      onClick={() =>
                        void act("Redelivery queued.", () =>
                          api.POST("/webhook_deliveries/{delivery_id}/_redeliver", {
                            params: { path: { delivery_id: d.id } },
                          }),
                        )
                      }
                    >
                      Redeliver
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {deliveries?.length === 0 && <p className="muted">No deliveries yet.</p>}
    </section>
  );
}
