// What the shop may do with a shipment now, exactly as its `actions` say (the service's own table): edit it,
// confirm it, withdraw it. Confirming and withdrawing ask first, saying what will happen; the new status shows
// once the service has it. A refusal because someone changed the shipment meanwhile is said in words, and the
// page shows the shipment as it is now.
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { Confirm } from "../../parts/Confirm.tsx";
import { useWords, type Words } from "../../words/index.ts";
import { useShipmentAction } from "./data.ts";
import { isStatusClash, problemWords, statusNow } from "./problems.ts";
import type { InboundShipment } from "../../../../generated/api.ts";

type Asked = "confirm" | "delete";

export function ShipmentActions({ shipment }: { shipment: InboundShipment }) {
  const w = useWords();
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
        setDone(
          action === "confirm"
            ? `Done: the warehouse now expects this delivery. Its status is now “${w.t.statuses[r.status]}”.`
            : `Done: the shipment is withdrawn, and the warehouse no longer expects it. Its status is now “${w.t.statuses[r.status]}”.`,
        );
      },
      onSettled: () => setAsked(undefined),
    });
  const ask = (action: Asked) => {
    act.reset();
    setDone("");
    setAsked(action);
  };
  const refused = act.error ? refusal(w, act.error, act.variables) : "";
  return (
    <div className="shipment-actions">
      {actions.length > 0 && (
        <section aria-label="What you can do" className="buttons">
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
      {actions.length === 0 && (
        <p className="muted">This shipment is closed: it can no longer be changed, confirmed or withdrawn.</p>
      )}
      <p role="status" ref={said} tabIndex={-1} className="done">
        {done}
      </p>
      {refused && (
        <p role="alert" className="problem">
          {refused}
        </p>
      )}
      {asked === "confirm" && (
        <Confirm
          title={`Confirm shipment ${ref}?`}
          confirmLabel="Confirm shipment"
          busy={act.isPending}
          onConfirm={() => run("confirm")}
          onCancel={() => setAsked(undefined)}
        >
          <p>The warehouse will expect this delivery. You can still edit the shipment afterwards.</p>
        </Confirm>
      )}
      {asked === "delete" && (
        <Confirm
          title={`Withdraw shipment ${ref}?`}
          confirmLabel="Withdraw shipment"
          destructive
          cancelLabel="Keep it"
          busy={act.isPending}
          onConfirm={() => run("delete")}
          onCancel={() => setAsked(undefined)}
        >
          <p>The shipment is withdrawn; the warehouse no longer expects it. This cannot be undone.</p>
        </Confirm>
      )}
    </div>
  );
}

/** Why it was not done: a status that moved on named as it is now, anything else in the catalogue's words. */
function refusal(w: Words, error: unknown, tried: Asked | undefined): string {
  const verb = tried === "confirm" ? "confirmed" : "withdrawn";
  const status = isStatusClash(error) ? statusNow(w, error) : undefined;
  if (status) return `The shipment was not ${verb}: someone changed it in the meantime. ${status}`;
  return problemWords(w, error)?.message ?? "";
}
