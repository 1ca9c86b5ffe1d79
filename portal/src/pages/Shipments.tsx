// Inbound shipments: filtered, cursor-paginated list; one shipment's lines, arrivals and problems; announce
// and modify forms that show the API's messages next to the fields.
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { formatTime, problemsOf, type Api, type Problems, type S } from "../api.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";
import { go } from "../route.ts";
import { signedOut } from "../app/data.ts";
import { useApi } from "../app/session.ts";


type Shipment = S["InboundShipment"];
const STATUSES: S["InboundShipmentStatus"][] = [
  "initial",
  "confirmed",
  "en_route",
  "arrived_at_warehouse",
  "processing",
  "problem",
  "processed",
  "cancelled",
  "deleted",
];
const statusWords = (s: string) => s.replaceAll("_", " ");

interface Props {
  api: Api;
  route: string[];
  onExpired: () => void;
}

export function Shipments({ rest: route }: { rest: string[] }) {
  const api = useApi();
  const onExpired = signedOut;
  if (route[0] === "new") return <ShipmentForm api={api} onExpired={onExpired} />;
  if (route[0] && route[1] === "edit") return <ShipmentForm api={api} id={route[0]} onExpired={onExpired} />;
  if (route[0]) return <ShipmentView api={api} id={route[0]} onExpired={onExpired} />;
  return <ShipmentList api={api} onExpired={onExpired} />;
}

function ShipmentList({ api, onExpired }: Omit<Props, "route">) {
  const [status, setStatus] = useState("");
  const [ref, setRef] = useState("");
  const [query, setQuery] = useState<{ status?: S["InboundShipmentStatus"]; ref?: string }>({});
  const [pages, setPages] = useState<S["InboundShipmentList"][]>([]);
  const [problems, setProblems] = useState<Problems>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (cursor?: string) => {
      setBusy(true);
      const r = await api.GET("/inbound_shipments", {
        params: {
          query: {
            limit: 20,
            ...(query.status && { status: [query.status] }),
            ...(query.ref && { merchants_ref: query.ref }),
            ...(cursor && { cursor }),
          },
        },
      });
      setBusy(false);
      if (r.response.status === 401) return onExpired();
      if (!r.data) return setProblems(problemsOf(r.error));
      setProblems(undefined);
      setPages((p) => (cursor ? [...p, r.data] : [r.data]));
    },
    [api, query, onExpired],
  );
  useEffect(() => void load(), [load]);

  const search = (e: FormEvent) => {
    e.preventDefault();
    setQuery({
      ...(status && { status: status as S["InboundShipmentStatus"] }),
      ...(ref.trim() && { ref: ref.trim() }),
    });
  };
  const items = pages.flatMap((p) => p.items);
  const next = pages.at(-1)?.next_cursor;
  return (
    <section>
      <hgroup>
        <h1>Shipments</h1>
        <p>Deliveries your suppliers bring to the warehouse, and what has arrived of them.</p>
      </hgroup>
      <form className="row" onSubmit={search} role="search">
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusWords(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Merchant's reference
          <input type="search" value={ref} onChange={(e) => setRef(e.target.value)} placeholder="e.g. PO-1" />
        </label>
        <button type="submit" className="fit">
          Search
        </button>
        <a href="#/shipments/new" role="button" className="fit secondary">
          Announce a shipment
        </a>
      </form>
      <ProblemBanner problems={problems} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col">Sender</th>
              <th scope="col">Status</th>
              <th scope="col">Expected</th>
              <th scope="col">Arrived / announced</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {items.map((s) => (
              <tr key={s.id}>
                <td>
                  <a href={`#/shipments/${s.id}`}>{s.merchants_ref}</a>
                </td>
                <td>{s.sender_name}</td>
                <td>
                  <span className={`status ${s.status}`}>{statusWords(s.status)}</span>
                </td>
                <td>{s.expected_at_wh ?? "—"}</td>
                <td>
                  {s.products.reduce((n, l) => n + l.arrivedQty, 0)} / {s.products.reduce((n, l) => n + l.qty, 0)}
                </td>
                <td>{formatTime(s.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!busy && items.length === 0 && <p className="muted">No shipments match.</p>}
      {next && (
        <button type="button" className="secondary" aria-busy={busy} onClick={() => void load(next)}>
          Load more
        </button>
      )}
    </section>
  );
}

function ShipmentView({ api, id, onExpired }: { api: Api; id: string; onExpired: () => void }) {
  const [shipment, setShipment] = useState<Shipment>();
  const [timeline, setTimeline] = useState<S["InboundStatusHistory"]["items"]>([]);
  const [problems, setProblems] = useState<Problems>();
  useEffect(() => {
    const at = { params: { path: { shipment_id: id } } };
    void Promise.all([
      api.GET("/inbound_shipments/{shipment_id}", at),
      api.GET("/inbound_shipments/{shipment_id}/status_history", at),
    ]).then(([r, h]) => {
      if (r.response.status === 401) return onExpired();
      if (r.data) setShipment(r.data);
      else setProblems(problemsOf(r.error));
      setTimeline(h.data?.items ?? []);
    });
  }, [api, id, onExpired]);
  if (problems) return <ProblemBanner problems={problems} />;
  if (!shipment) return <p aria-busy="true">Loading…</p>;

  const arrivals = shipment.products
    .flatMap((l) => l.arrivals.map((a) => ({ ...a, product: l.product })))
    .sort((a, b) => a.ts.localeCompare(b.ts));
  return (
    <section>
      <nav aria-label="Breadcrumb">
        <ul>
          <li>
            <a href="#/shipments">Shipments</a>
          </li>
          <li>{shipment.merchants_ref}</li>
        </ul>
      </nav>
      <hgroup>
        <h1>{shipment.merchants_ref}</h1>
        <p>
          From {shipment.sender_name} ·{" "}
          <span className={`status ${shipment.status}`}>{statusWords(shipment.status)}</span>
        </p>
      </hgroup>
      <p>
        Expected at the warehouse: {shipment.expected_at_wh ?? "not given"} · announced{" "}
        {formatTime(shipment.created_at)} · last change {formatTime(shipment.updated_at)}
        {shipment.status === "initial" && (
          <>
            {" "}
            · <a href={`#/shipments/${shipment.id}/edit`}>Modify</a>
          </>
        )}
      </p>
      <h2>Lines</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Your id</th>
              <th scope="col">GTIN</th>
              <th scope="col">Announced</th>
              <th scope="col">Arrived</th>
            </tr>
          </thead>
          <tbody>
            {shipment.products.map((l) => (
              <tr key={l.product.id}>
                <td>{l.product.name ?? "—"}</td>
                <td>{l.product.merchants_id}</td>
                <td>{l.product.gtin ?? "—"}</td>
                <td>{l.qty}</td>
                <td>{l.arrivedQty}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Arrivals</h2>
      {arrivals.length === 0 ? (
        <p className="muted">Nothing has arrived yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Arrivals">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Product</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {arrivals.map((a, i) => (
                <tr key={i}>
                  <td>{formatTime(a.ts)}</td>
                  <td>{a.product.name ?? a.product.merchants_id}</td>
                  <td>{a.change > 0 ? `+${a.change}` : a.change}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Status timeline</h2>
      <ol aria-label="Status timeline">
        {timeline.map((t, i) => (
          <li key={i}>
            {formatTime(t.at)}: <span className={`status ${t.to}`}>{statusWords(t.to)}</span>{" "}
            <small className="muted">
              {t.from ? `from ${statusWords(t.from)}, ` : ""}by the {t.by}
            </small>
          </li>
        ))}
      </ol>
      <h2>Problems</h2>
      {shipment.problems.length === 0 ? (
        <p className="muted">No problems reported.</p>
      ) : (
        <ul>
          {shipment.problems.map((p) => (
            <li key={p.id}>
              <strong>{statusWords(p.type)}</strong>: {p.description} (
              {p.resolved ? `resolved ${formatTime(p.resolved_at)}` : `open since ${formatTime(p.created_at)}`})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface Line {
  merchants_id: string;
  name: string;
  gtin: string;
  qty: string;
}
const emptyLine = (): Line => ({ merchants_id: "", name: "", gtin: "", qty: "1" });

function ShipmentForm({ api, id, onExpired }: { api: Api; id?: string; onExpired: () => void }) {
  const [ref, setRef] = useState("");
  const [sender, setSender] = useState("");
  const [expected, setExpected] = useState("");
  const [lines, setLines] = useState<Line[]>([emptyLine()]);
  const [problems, setProblems] = useState<Problems>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!id) return;
    void api.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } }).then((r) => {
      if (!r.data) return setProblems(problemsOf(r.error));
      setRef(r.data.merchants_ref);
      setSender(r.data.sender_name);
      setExpected(r.data.expected_at_wh ?? "");
      setLines(
        r.data.products.map((l) => ({
          merchants_id: l.product.merchants_id,
          name: l.product.name ?? "",
          gtin: l.product.gtin ?? "",
          qty: String(l.qty),
        })),
      );
    });
  }, [api, id]);

  const setLine = (i: number, patch: Partial<Line>) =>
    setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    // Sent as typed: the API's validation is the one that counts, and its messages land next to the fields.
    const products = lines.map((l) => ({
      merchants_id: l.merchants_id,
      qty: Number(l.qty),
      ...(l.name.trim() && { name: l.name.trim() }),
      ...(l.gtin.trim() && { gtin: l.gtin.trim() }),
    }));
    const body = { merchants_ref: ref, sender_name: sender, ...(expected && { expected_at_wh: expected }) };
    const r = id
      ? await api.POST("/inbound_shipments/{shipment_id}", {
          params: { path: { shipment_id: id } },
          body: { ...body, products_all: products },
        })
      : await api.POST("/inbound_shipments/_create", { body: { ...body, products } });
    setBusy(false);
    if (r.response.status === 401) return onExpired();
    if (r.error) return setProblems(problemsOf(r.error));
    go("shipments", id ?? (r.data as { shipment_id: string }).shipment_id);
  };
  const linesKey = id ? "products_all" : "products";
  return (
    <section>
      <nav aria-label="Breadcrumb">
        <ul>
          <li>
            <a href="#/shipments">Shipments</a>
          </li>
          <li>{id ? "Modify" : "Announce"}</li>
        </ul>
      </nav>
      <h1>{id ? `Modify ${ref}` : "Announce a shipment"}</h1>
      <form onSubmit={submit} noValidate>
        <div className="row">
          <Field label="Merchant's reference" path="/body/merchants_ref" problems={problems}>
            {(p) => <input {...p} value={ref} onChange={(e) => setRef(e.target.value)} />}
          </Field>
          <Field label="Sender" path="/body/sender_name" problems={problems}>
            {(p) => <input {...p} value={sender} onChange={(e) => setSender(e.target.value)} />}
          </Field>
          <Field label="Expected at the warehouse" path="/body/expected_at_wh" problems={problems}>
            {(p) => <input {...p} type="date" value={expected} onChange={(e) => setExpected(e.target.value)} />}
          </Field>
        </div>
        <fieldset>
          <legend>Products</legend>
          {lines.map((l, i) => (
            <div className="row" key={i} role="group" aria-label={`Line ${i + 1}`}>
              <Field label="Product id" path={`/body/${linesKey}/${i}/merchants_id`} problems={problems}>
                {(p) => (
                  <input {...p} value={l.merchants_id} onChange={(e) => setLine(i, { merchants_id: e.target.value })} />
                )}
              </Field>
              <Field label="Name" path={`/body/${linesKey}/${i}/name`} problems={problems}>
                {(p) => <input {...p} value={l.name} onChange={(e) => setLine(i, { name: e.target.value })} />}
              </Field>
              <Field label="GTIN" path={`/body/${linesKey}/${i}/gtin`} problems={problems}>
                {(p) => (
                  <input
                    {...p}
                    value={l.gtin}
                    inputMode="numeric"
                    onChange={(e) => setLine(i, { gtin: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Quantity" path={`/body/${linesKey}/${i}/qty`} problems={problems}>
                {(p) => (
                  <input
                    {...p}
                    type="number"
                    min={1}
                    value={l.qty}
                    onChange={(e) => setLine(i, { qty: e.target.value })}
                  />
                )}
              </Field>
              <button
                type="button"
                className="fit outline secondary"
                aria-label={`Remove line ${i + 1}`}
                disabled={lines.length === 1}
                onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="outline" onClick={() => setLines((ls) => [...ls, emptyLine()])}>
            Add a line
          </button>
        </fieldset>
        <ProblemBanner
          problems={problems}
          shown={["/body/merchants_ref", "/body/sender_name", "/body/expected_at_wh", `/body/${linesKey}`]}
        />
        <button type="submit" aria-busy={busy} disabled={busy}>
          {id ? "Save changes" : "Announce"}
        </button>
      </form>
    </section>
  );
}
