// Today's expected shipments of every merchant, the earliest first; "Arrived" for one that came to the dock; and the
// scan field that opens a shipment by its label's barcode (its id) or a reference (several sharing it: pick one).
import { useCallback, useEffect, useState, type FormEvent } from "react";
import type { LogisticsClient } from "../../../client/index.ts";
import { useWords } from "../words/index.ts";
import type { StationWords } from "../words/station-words.ts";
import { CameraScan } from "./Camera.tsx";
import { localToday } from "./session.ts";
import type { LookupCandidate, WarehouseInboundShipment } from "../../../generated/api.ts";

/** Where "Arrived" is a legal move (the service's state rules; a receiver may make it). */
const CAN_ARRIVE: ReadonlySet<WarehouseInboundShipment["status"]> = new Set([
  "initial",
  "confirmed",
  "en_route",
  "problem",
]);

export function Today({
  s,
  api,
  onOpen,
  onEnded,
}: {
  s: StationWords;
  api: LogisticsClient;
  onOpen: (shipment: WarehouseInboundShipment) => void;
  onEnded: () => void;
}) {
  const w = useWords();
  const [list, setList] = useState<WarehouseInboundShipment[]>();
  const [problem, setProblem] = useState<string>();
  const [code, setCode] = useState("");
  const [candidates, setCandidates] = useState<LookupCandidate[]>();
  const [busy, setBusy] = useState<string>();

  const load = useCallback(async () => {
    const today = localToday();
    try {
      const r = await api.GET("/warehouse/inbound_shipments", {
        params: { query: { expected_from: today, expected_to: today, limit: 100 } },
      });
      if (r.response.status === 401) return onEnded();
      if (r.data) setList(r.data.items);
      else setProblem(w.answer(r.error?.code ?? "unknown"));
    } catch {
      setProblem(w.answer("unreachable"));
    }
  }, [api, onEnded, w]);
  useEffect(() => void load(), [load]);

  const open = async (scanned: string) => {
    const c = scanned.trim();
    if (!c) return;
    setProblem(undefined);
    setCandidates(undefined);
    try {
      const r = await api.GET("/warehouse/inbound_shipments/_lookup", { params: { query: { code: c } } });
      if (r.data) return onOpen(r.data);
      if (r.response.status === 401) return onEnded();
      const body = r.error;
      if (body && "candidates" in body) setCandidates(body.candidates);
      else if (r.response.status === 404 || r.response.status === 400) setProblem(s.notFound(c));
      else setProblem(w.answer(body?.code ?? "unknown"));
    } catch {
      setProblem(w.answer("unreachable"));
    }
  };

  const arrived = async (sh: WarehouseInboundShipment) => {
    setBusy(sh.id);
    setProblem(undefined);
    try {
      const r = await api.POST("/inbound_shipments/{shipment_id}/_status", {
        params: { path: { shipment_id: sh.id } },
        body: { status: "arrived_at_warehouse" },
      });
      if (r.response.status === 401) return onEnded();
      if (!r.data) setProblem(w.answer(r.error?.code ?? "unknown"));
      await load();
    } catch {
      setProblem(w.answer("unreachable"));
    } finally {
      setBusy(undefined);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void open(code);
    setCode("");
  };

  return (
    <>
      <h1>{s.todayTitle}</h1>
      <form onSubmit={submit} aria-label={s.openForm}>
        <label>
          {s.openField}
          <input
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            enterKeyHint="go"
          />
        </label>
        <button type="submit">{s.open}</button>
        <CameraScan s={s} onCode={(c) => void open(c)} />
      </form>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      {candidates && (
        <section aria-label={s.whichShipment}>
          <h2>{s.whichShipment}</h2>
          <ul className="choices">
            {candidates.map((c) => (
              <li key={c.id}>
                <button type="button" className="secondary" onClick={() => void open(c.id)}>
                  {c.merchants_ref} · {c.merchant_id} · {c.sender_name}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-label={s.todayList} aria-busy={list === undefined}>
        {list?.length === 0 && <p>{s.nothingToday}</p>}
        {list?.map((sh) => {
          const items = sh.lines.reduce((n, l) => n + l.qty, 0);
          return (
            <article key={sh.id} className="shipment" aria-label={sh.merchants_ref}>
              <h2>{sh.merchants_ref}</h2>
              <p>
                {sh.sender_name} · {sh.merchant_id}
              </p>
              <p>
                <span className="badge">{w.t.statuses[sh.status]}</span> {s.lineCount(sh.lines.length, items)}
              </p>
              <div className="actions">
                {CAN_ARRIVE.has(sh.status) && (
                  <button type="button" aria-busy={busy === sh.id} onClick={() => void arrived(sh)}>
                    {s.arrived}
                  </button>
                )}
                <button type="button" className="secondary" onClick={() => onOpen(sh)}>
                  {s.openShipment}
                </button>
              </div>
            </article>
          );
        })}
      </section>
    </>
  );
}
