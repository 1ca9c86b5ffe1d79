// What the shop may do with a shipment now, exactly as its `actions` say (the service's own table): edit it,
// confirm it, withdraw it. Confirming and withdrawing ask first, saying what will happen; the new status shows
// once the service has it. A refusal because someone changed the shipment meanwhile is said in words, and the
// page shows the shipment as it is now.
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { Confirm } from "../../parts/Confirm.tsx";
import { useWords, type Words } from "../../words/index.ts";
import { useShipmentAction } from "./data.ts";
import { isStatusClash, statusNow } from "./problems.ts";
import { problemsOf, Refusal } from "../../app/data.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import type { InboundShipment } from "../../../../generated/api.ts";

type Asked = "confirm" | "delete";

export function ShipmentActions({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
  const ts = w.t.shipments;
  const act = useShipmentAction(shipment.id);
  const [asked, setAsked] = useState<Asked>();
  const [done, setDone] = useState("");
  const said = useRef<HTMLParagraphElement>(null);
  // Once the dialog is gone (its buttons with it), the person hears and sees what happened.
  useEffect(() => {
    if (done) said.current?.focus();
  }, [done]);
  const actions = shipment.actions ?? [];
  const ref = shipment.merchants_ref;

  const run = (action: Asked) =>
    act.mutate(action, {
      onSuccess: (r) => {
        setDone(action === "confirm" ? ts.confirmed(w.t.statuses[r.status]) : ts.withdrawn(w.t.statuses[r.status]));
      },
      onSettled: () => setAsked(undefined),
    });
  const ask = (action: Asked) => {
    act.reset();
    setDone("");
    setAsked(action);
  };
  const refused = problemsOf(w, refusal(w, act.error, act.variables));
  return (
    <div className="shipment-actions">
      {actions.length > 0 && (
        <section aria-label={ts.whatYouCanDo} className="buttons">
          {actions.includes("modify") && (
            <Link href={`/shipments/${shipment.id}/edit`} className="button-link">
              {w.t.actions.modify}
            </Link>
          )}
          {actions.includes("confirm") && (
            <button type="button" disabled={act.isPending} onClick={() => ask("confirm")}>
              {w.t.actions.confirm}
            </button>
          )}
          {actions.includes("delete") && (
            <button type="button" className="secondary" disabled={act.isPending} onClick={() => ask("delete")}>
              {w.t.actions.delete}
            </button>
          )}
        </section>
      )}
      {actions.length === 0 && <p className="muted">{ts.closed}</p>}
      <p role="status" ref={said} tabIndex={-1} className="done">
        {done}
      </p>
      <ProblemBanner problems={refused} />
      {asked === "confirm" && (
        <Confirm
          title={ts.confirmQuestion(ref)}
          confirmLabel={ts.confirmShipment}
          busy={act.isPending}
          onConfirm={() => run("confirm")}
          onCancel={() => setAsked(undefined)}
        >
          <p>{ts.confirmWhat}</p>
        </Confirm>
      )}
      {asked === "delete" && (
        <Confirm
          title={ts.withdrawQuestion(ref)}
          confirmLabel={ts.withdrawShipment}
          destructive
          cancelLabel={ts.keepIt}
          busy={act.isPending}
          onConfirm={() => run("delete")}
          onCancel={() => setAsked(undefined)}
        >
          <p>{ts.withdrawWhat}</p>
        </Confirm>
      )}
    </div>
  );
}

/** Why it was not done: a status that moved on named as it is now; anything else as the service answered. */
function refusal(w: Words, error: unknown, tried: Asked | undefined): unknown {
  const status = isStatusClash(error) ? statusNow(w, error) : undefined;
  if (!status) return error;
  return new Refusal(tried === "confirm" ? w.t.shipments.notConfirmed(status) : w.t.shipments.notWithdrawn(status));
}
