// Finishing a shipment: the differences between the notice and the count in plain words, then the close the
// warehouse makes today (`processed`; with differences the service records them and the shipment goes to `problem`
// for the merchant to settle). A receiver finishes only a shipment without differences, a supervisor also one with
// them. Refused while this station has scans of it not sent: the count would not be the whole count.
import { useEffect, useState } from "react";
import type { LogisticsClient } from "../../../client/index.ts";
import { useWords } from "../words/index.ts";
import type { StationWords } from "../words/station-words.ts";
import { countLines, unsentOf } from "./lines.ts";
import type { OutboxState } from "./queue.ts";
import type { S } from "./session.ts";
import type { WarehouseInboundShipment } from "../../../generated/api.ts";

export function Finish({
  s,
  api,
  role,
  shipment,
  queue,
  onShipment,
  onEnded,
  onBack,
  onDone,
}: {
  s: StationWords;
  api: LogisticsClient;
  role: S["WarehouseUserRole"];
  shipment: WarehouseInboundShipment;
  queue: OutboxState;
  onShipment: (s: WarehouseInboundShipment) => void;
  onEnded: () => void;
  onBack: () => void;
  onDone: () => void;
}) {
  const w = useWords();
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<WarehouseInboundShipment["status"]>();
  const [fresh, setFresh] = useState(false);
  const unsent = unsentOf(shipment.id, queue.batches);

  // The differences are the service's latest count, another station's scans included.
  useEffect(() => {
    api.GET("/warehouse/inbound_shipments/_lookup", { params: { query: { code: shipment.id } } }).then(
      (r) => {
        if (r.data) onShipment(r.data);
        else if (r.response.status === 401) onEnded();
        setFresh(true);
      },
      () => setFresh(true),
    );
  }, [api, shipment.id, onShipment, onEnded]);

  const lines = countLines(shipment, []);
  const differences = lines.filter((l) => l.counted !== l.qty);
  const finish = async () => {
    setProblem(undefined);
    try {
      const r = await api.POST("/inbound_shipments/{shipment_id}/_status", {
        params: { path: { shipment_id: shipment.id } },
        body: { status: "processed" },
      });
      if (r.response.status === 401) return onEnded();
      if (!r.data) return setProblem(w.answer(r.error?.code ?? "unknown"));
      onShipment({ ...shipment, status: r.data.status });
      setDone(r.data.status);
    } catch {
      setProblem(w.answer("unreachable"));
    }
  };

  if (done)
    return (
      <>
        <h1>{s.finishTitle(shipment.merchants_ref)}</h1>
        <p role="status" className="last-scan">
          {done === "problem"
            ? s.finishedWithDifferences
            : differences.length === 0
              ? s.finishedClean
              : s.finishedAccepted}
        </p>
        <button type="button" onClick={onDone}>
          {s.backToToday}
        </button>
      </>
    );

  const mayFinish = unsent === 0 && (differences.length === 0 || role === "supervisor");
  return (
    <>
      <h1>{s.finishTitle(shipment.merchants_ref)}</h1>
      {unsent > 0 && (
        <p role="alert" className="notice">
          {s.finishUnsent(unsent)}
        </p>
      )}
      <section aria-label={s.differencesTitle} aria-busy={!fresh}>
        <h2>{s.differencesTitle}</h2>
        {differences.length === 0 ? (
          <p>{s.noDifferences}</p>
        ) : (
          <ul className="differences">
            {differences.map((l) => (
              <li key={l.merchants_id}>{s.difference(l.name || l.merchants_id, l.counted, l.qty)}</li>
            ))}
          </ul>
        )}
      </section>
      {differences.length > 0 && role === "receiver" && (
        <p role="alert" className="notice">
          {s.supervisorFinishes}
        </p>
      )}
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      <div className="actions">
        {mayFinish && fresh && (
          <button type="button" onClick={() => void finish()}>
            {differences.length === 0 ? s.finishNow : s.finishWithDifferences}
          </button>
        )}
        <button type="button" className="secondary" onClick={onBack}>
          {s.backToScanning}
        </button>
      </div>
    </>
  );
}
