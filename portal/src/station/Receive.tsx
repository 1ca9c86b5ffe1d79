// Receiving one shipment: the scan field a keyboard-wedge scanner types into (GTIN and Enter), a quantity for a
// carton, and at once the product with its counted/expected figures, a tone and a buzz. What a scan cannot settle
// alone is asked (Question.tsx). The shipment is read again every few seconds, so another station's scans show.
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import type { LogisticsClient } from "../../../client/index.ts";
import { useWords } from "../words/index.ts";
import type { StationWords } from "../words/station-words.ts";
import { CameraScan } from "./Camera.tsx";
import { feedback } from "./feedback.ts";
import { countLines, unsentOf } from "./lines.ts";
import { matchCode, overCount, type CountLine } from "./match.ts";
import { Question, type Asking } from "./Question.tsx";
import type { Outbox, OutboxState } from "./queue.ts";
import { Refused } from "./Refused.tsx";
import type { WarehouseInboundShipment } from "../../../generated/api.ts";

const REFRESH_MS = 5_000;

export function Receive({
  s,
  api,
  shipment,
  queue,
  outbox,
  onShipment,
  onEnded,
  onFinish,
  onBack,
}: {
  s: StationWords;
  api: LogisticsClient;
  shipment: WarehouseInboundShipment;
  queue: OutboxState;
  outbox: Outbox;
  onShipment: (s: WarehouseInboundShipment) => void;
  onEnded: () => void;
  onFinish: () => void;
  onBack: () => void;
}) {
  const w = useWords();
  const [code, setCode] = useState("");
  const [qty, setQty] = useState("1");
  const [asking, setAsking] = useState<Asking>();
  const [last, setLast] = useState<{ text: string }>();
  const scanField = useRef<HTMLInputElement>(null);
  const lines = countLines(shipment, queue.batches);
  const unsent = unsentOf(shipment.id, queue.batches);
  const mine = queue.batches.filter((b) => b.shipment_id === shipment.id);
  const refused = mine.filter((b) => b.refused).length;

  const refresh = useCallback(async () => {
    try {
      const mark = outbox.mark();
      const r = await api.GET("/warehouse/inbound_shipments/_lookup", { params: { query: { code: shipment.id } } });
      // A read that crossed a batch's trip may be older than its answer: the next one will do.
      if (r.data) {
        if (mark !== undefined && outbox.mark() === mark) onShipment(r.data);
      } else if (r.response.status === 401) onEnded();
    } catch {
      // Offline: the queue says so; the counts on screen stay as they were.
    }
  }, [api, outbox, shipment.id, onShipment, onEnded]);
  useEffect(() => {
    const t = setInterval(() => void refresh(), REFRESH_MS);
    return () => clearInterval(t);
  }, [refresh]);

  // A refusal says the shipment changed (closed, removed): show it as it is now.
  useEffect(() => {
    if (refused === 0) return;
    // The last scan's figure may be one that was refused: the list below says what counts.
    setLast(undefined);
    void refresh();
  }, [refused, refresh]);

  const count = (line: CountLine, n: number, extra: { name?: string; gtin?: string } = {}) => {
    setAsking(undefined);
    void outbox.add(shipment.id, [{ merchants_id: line.merchants_id, change: n, ...extra }]);
    const now = line.counted + line.unsent + n;
    const name = line.name || line.merchants_id;
    setLast({ text: line.qty > 0 ? s.counted(name, n, now, line.qty) : s.countedExtra(name, n, now) });
    feedback("ok");
    setQty("1");
    scanField.current?.focus();
  };

  /** A line chosen or matched: counted, unless that goes past what was announced (asked first). */
  const take = (line: CountLine, n: number) => {
    if (overCount(line, n)) {
      setAsking({ kind: "over", line, n });
      feedback("ask");
    } else count(line, n);
  };

  const scan = (raw: string) => {
    const n = Math.max(1, Math.floor(Number(qty)) || 1);
    const m = matchCode(raw, lines);
    setLast(undefined);
    if (m.kind === "line") return take(m.line, n);
    feedback("ask");
    if (m.kind === "choose") setAsking({ kind: "choose", lines: m.lines, by: m.by, n });
    else if (m.kind === "not_on_notice") setAsking({ kind: "not_on_notice", gtin: m.gtin, n });
    else setAsking({ kind: m.kind, code: raw.trim() });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (code.trim()) scan(code);
    setCode("");
  };

  const closed = shipment.status === "processed" || shipment.status === "cancelled" || shipment.status === "deleted";
  return (
    <>
      <h1>{shipment.merchants_ref}</h1>
      <p>
        {shipment.sender_name} · {shipment.merchant_id} · <span className="badge">{w.t.statuses[shipment.status]}</span>
      </p>
      {closed && (
        <p role="alert" className="notice">
          {shipment.status === "deleted" ? s.deletedNow : s.closedNow}
        </p>
      )}
      <form onSubmit={submit} aria-label={s.scanForm} className="scan">
        <label>
          {s.quantity}
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={100000}
            value={qty}
            onChange={(e) => setQty(e.target.value)}
            onKeyDown={(e) => {
              // Enter after a carton's quantity goes on to the scan.
              if (e.key === "Enter") {
                e.preventDefault();
                scanField.current?.focus();
              }
            }}
          />
        </label>
        <label>
          {s.scanField}
          <input
            ref={scanField}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            enterKeyHint="enter"
          />
        </label>
        <button type="submit">{s.count}</button>
        <CameraScan s={s} onCode={scan} />
      </form>
      <p role="status" className={last ? "last-scan" : "last-scan empty"}>
        {last?.text}
      </p>
      {asking && (
        <Question
          s={s}
          asking={asking}
          lines={lines}
          onCount={(line, n, extra) => count(line, n, extra)}
          onTake={take}
          onCancel={() => {
            setAsking(undefined);
            scanField.current?.focus();
          }}
        />
      )}
      <Refused s={s} batches={mine} lines={lines} outbox={outbox} />
      <section aria-label={s.linesTitle}>
        <h2>{s.linesTitle}</h2>
        <ul className="lines">
          {lines.map((l) => (
            <li key={l.merchants_id} className={l.counted + l.unsent > l.qty ? "over" : undefined}>
              <span>
                <strong>{l.name || l.merchants_id}</strong>
                <br />
                <small>
                  {l.merchants_id}
                  {l.gtin && ` · ${l.gtin}`}
                  {l.qty === 0 && ` · ${s.notOnNotice}`}
                </small>
              </span>
              <span className="figure">
                {s.ofExpected(l.counted + l.unsent, l.qty)}
                {l.unsent > 0 && <small className="unsent">{s.notSentYet(l.unsent)}</small>}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <div className="actions">
        <button type="button" onClick={onFinish} disabled={closed}>
          {s.finish}
        </button>
        <button type="button" className="secondary" onClick={onBack}>
          {s.back}
        </button>
      </div>
      {unsent > 0 && <p className="muted">{s.unsent(unsent)}</p>}
    </>
  );
}
