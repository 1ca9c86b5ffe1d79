// The signed-in station: a header (who, the connection, scans not sent yet), one screen at a time (today's list,
// receiving one shipment, finishing it), and the person's queue of scans, which outlives a lost network and an
// ended session.
import { useCallback, useEffect, useMemo, useState } from "react";
import { useWords } from "../words/index.ts";
import { Finish } from "./Finish.tsx";
import { Outbox, type OutboxState } from "./queue.ts";
import { Receive } from "./Receive.tsx";
import { fromInbound, hint, stationClient } from "./session.ts";
import { SignIn } from "./SignIn.tsx";
import { Today } from "./Today.tsx";
import type { StationSession, WarehouseInboundShipment } from "../../../generated/api.ts";

export type Screen = { name: "today" } | { name: "receive"; id: string } | { name: "finish"; id: string };

export function Station({
  session,
  onSignedOut,
  onSession,
}: {
  session: StationSession;
  onSignedOut: () => void;
  onSession: (s: StationSession) => void;
}) {
  const w = useWords();
  const s = w.t.station;
  const api = useMemo(() => stationClient(session.csrf_token), [session.csrf_token]);
  const [screen, setScreen] = useState<Screen>({ name: "today" });
  // Shipments as last read, by id: the receiving and finishing screens and an accepted batch's answer update them.
  const [shipments, setShipments] = useState<Record<string, WarehouseInboundShipment>>({});
  const [queue, setQueue] = useState<OutboxState>({ batches: [], offline: false, signedOut: false });
  const [ended, setEnded] = useState(false);

  const remember = useCallback((sh: WarehouseInboundShipment) => setShipments((all) => ({ ...all, [sh.id]: sh })), []);
  const outbox = useMemo(
    () =>
      new Outbox(session.user.id, api, (id, answer) =>
        setShipments((all) => (all[id] ? { ...all, [id]: fromInbound(answer, all[id]) } : all)),
      ),
    // One queue per person (the component is keyed by the user); a new session of the same person resumes it (below).
    [session.user.id],
  );
  useEffect(() => {
    outbox.start();
    const off = outbox.subscribe(setQueue);
    return () => {
      off();
      outbox.stop();
    };
  }, [outbox]);
  useEffect(() => outbox.resume(api), [outbox, api]);
  useEffect(() => {
    if (queue.signedOut) setEnded(true);
  }, [queue.signedOut]);

  const unsent = queue.batches.filter((b) => !b.refused).length;
  const signOut = async () => {
    await api.POST("/station_sessions/current/_delete").catch(() => undefined);
    hint.set(false);
    onSignedOut();
  };

  if (ended)
    return (
      <SignIn
        s={s}
        ended={s.sessionEnded(unsent)}
        onSignedIn={(next) => {
          setEnded(false);
          onSession(next);
        }}
      />
    );

  return (
    <>
      <header className="container station-bar">
        <p>
          <strong>{session.user.name}</strong> <span className="muted">{s.roles[session.user.role]}</span>
        </p>
        <p role="status" className={queue.offline ? "offline" : "online"}>
          {queue.offline ? s.offline : s.online}
          {unsent > 0 && <> · {s.unsent(unsent)}</>}
        </p>
        <button type="button" className="secondary outline" onClick={() => void signOut()}>
          {s.signOut}
        </button>
      </header>
      <main className="container station">
        {screen.name === "today" && (
          <Today
            s={s}
            api={api}
            onOpen={(sh) => (remember(sh), setScreen({ name: "receive", id: sh.id }))}
            onEnded={() => setEnded(true)}
          />
        )}
        {screen.name === "receive" && shipments[screen.id] && (
          <Receive
            s={s}
            api={api}
            shipment={shipments[screen.id]!}
            queue={queue}
            outbox={outbox}
            onShipment={remember}
            onEnded={() => setEnded(true)}
            onFinish={() => setScreen({ name: "finish", id: screen.id })}
            onBack={() => setScreen({ name: "today" })}
          />
        )}
        {screen.name === "finish" && shipments[screen.id] && (
          <Finish
            s={s}
            api={api}
            role={session.user.role}
            shipment={shipments[screen.id]!}
            queue={queue}
            onShipment={remember}
            onEnded={() => setEnded(true)}
            onBack={() => setScreen({ name: "receive", id: screen.id })}
            onDone={() => setScreen({ name: "today" })}
          />
        )}
      </main>
    </>
  );
}
