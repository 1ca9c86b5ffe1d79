// The list's search and status filters. What is applied lives in the address (a reload or a shared link keeps
// it): the search text when sent (Enter or Search), a status as soon as it is ticked. On a phone the statuses
// fold into one dropdown of checkboxes, so that the list starts near the top.
import { useEffect, useState, type FormEvent } from "react";
import { useWords } from "../../words/index.ts";
import { STATUSES, type Filters } from "./data.ts";
import type { InboundShipmentStatus } from "../../../../generated/api.ts";

export function ShipmentFilters({ applied, onApply }: { applied: Filters; onApply: (f: Filters) => void }) {
  const w = useWords();
  const ts = w.t.shipments;
  const [text, setText] = useState(applied.q);
  // Back, forward or a link with other filters: the box shows what is applied.
  useEffect(() => setText(applied.q), [applied.q]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ ...applied, q: text.trim() });
  };
  const toggle = (s: InboundShipmentStatus, on: boolean) => {
    const chosen = new Set(applied.statuses);
    if (on) chosen.add(s);
    else chosen.delete(s);
    onApply({ q: text.trim(), statuses: STATUSES.filter((x) => chosen.has(x)) });
  };
  const n = applied.statuses.length;
  const summary =
    n === 0 ? ts.anyStatus : n <= 2 ? applied.statuses.map((s) => w.t.statuses[s]).join(", ") : ts.statusCount(n);
  const any = applied.q !== "" || applied.statuses.length > 0;
  return (
    <form aria-label={ts.find} className="shipment-filters" onSubmit={submit}>
      <label className="search">
        {ts.refOrSender}
        <input
          type="search"
          value={text}
          maxLength={100}
          placeholder={ts.searchExample}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <fieldset className="statuses">
        <legend>{ts.status}</legend>
        <details className="dropdown">
          <summary>{summary}</summary>
          <ul>
            {STATUSES.map((s) => (
              <li key={s}>
                <label>
                  <input
                    type="checkbox"
                    checked={applied.statuses.includes(s)}
                    onChange={(e) => toggle(s, e.target.checked)}
                  />
                  {w.t.statuses[s]}
                </label>
              </li>
            ))}
          </ul>
        </details>
      </fieldset>
      <div className="buttons">
        <button type="submit">{ts.search}</button>
        {any && (
          <button type="button" className="secondary outline" onClick={() => onApply({ q: "", statuses: [] })}>
            {ts.clearFilters}
          </button>
        )}
      </div>
    </form>
  );
}
