// What a scan asks before it counts: which of several lines (a GTIN on two lines, or a name or SKU typed for a
// product without a GTIN), what a GTIN that is not on the notice is (one of the lines, or a product to record as not
// on the notice, under the supplier's SKU and a name), whether to count past what was announced, or that nothing
// matched. The first button takes the focus, so that a gloved thumb or Enter answers it.
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { StationWords } from "../words/station-words.ts";
import type { CountLine } from "./match.ts";

export type Asking =
  | { kind: "over"; line: CountLine; n: number }
  | { kind: "choose"; lines: CountLine[]; by: "gtin" | "name"; n: number }
  | { kind: "not_on_notice"; gtin: string; n: number }
  | { kind: "bad_gtin" | "none"; code: string };

export function Question({
  s,
  asking,
  lines,
  onCount,
  onTake,
  onCancel,
}: {
  s: StationWords;
  asking: Asking;
  lines: CountLine[];
  /** Count without asking again (the person answered). */
  onCount: (line: CountLine, n: number, extra?: { name?: string; gtin?: string }) => void;
  /** Count a chosen line, asking if it goes past what was announced. */
  onTake: (line: CountLine, n: number) => void;
  onCancel: () => void;
}) {
  const first = useRef<HTMLButtonElement & HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), [asking]);
  const choice = (l: CountLine, n: number, i: number) => (
    <li key={l.merchants_id}>
      <button type="button" className="secondary" ref={i === 0 ? first : undefined} onClick={() => onTake(l, n)}>
        {l.name || l.merchants_id} · {l.merchants_id} · {s.ofExpected(l.counted + l.unsent, l.qty)}
      </button>
    </li>
  );
  const cancel = (
    <button type="button" className="secondary outline" onClick={onCancel}>
      {s.dontCount}
    </button>
  );

  switch (asking.kind) {
    case "over":
      return (
        <section role="alertdialog" aria-label={s.overTitle} className="question warn">
          <h2>{s.overTitle}</h2>
          <p>
            {s.overText(
              asking.line.name || asking.line.merchants_id,
              asking.line.counted + asking.line.unsent + asking.n,
              asking.line.qty,
            )}
          </p>
          <div className="actions">
            <button type="button" ref={first} onClick={() => onCount(asking.line, asking.n)}>
              {s.countAnyway}
            </button>
            {cancel}
          </div>
        </section>
      );
    case "choose":
      return (
        <section role="alertdialog" aria-label={s.whichProduct} className="question">
          <h2>{s.whichProduct}</h2>
          <p>{asking.by === "gtin" ? s.sameGtin : s.byName}</p>
          <ul className="choices">{asking.lines.map((l, i) => choice(l, asking.n, i))}</ul>
          {cancel}
        </section>
      );
    case "not_on_notice":
      return (
        <NotOnNotice
          s={s}
          gtin={asking.gtin}
          n={asking.n}
          lines={lines}
          onCount={onCount}
          onTake={onTake}
          onCancel={onCancel}
        />
      );
    default:
      return (
        <section role="alertdialog" aria-label={s.noMatchTitle} className="question warn">
          <h2>{s.noMatchTitle}</h2>
          <p>{asking.kind === "bad_gtin" ? s.badGtin : s.noMatch(asking.code)}</p>
          <button type="button" ref={first} onClick={onCancel}>
            {s.ok}
          </button>
        </section>
      );
  }
}

function NotOnNotice({
  s,
  gtin,
  n,
  lines,
  onCount,
  onTake,
  onCancel,
}: {
  s: StationWords;
  gtin: string;
  n: number;
  lines: CountLine[];
  onCount: (line: CountLine, n: number, extra?: { name?: string; gtin?: string }) => void;
  onTake: (line: CountLine, n: number) => void;
  onCancel: () => void;
}) {
  const [sku, setSku] = useState("");
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string>();
  const skuField = useRef<HTMLInputElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => skuField.current?.focus(), [gtin]);

  const record = (e: FormEvent) => {
    e.preventDefault();
    const id = sku.trim();
    if (!id || !name.trim()) return setProblem(s.newProductMissing);
    const known = lines.find((l) => l.merchants_id.toLowerCase() === id.toLowerCase());
    // A SKU already on the shipment is that product: count it there, its name and GTIN as the merchant gave them.
    if (known) return onTake(known, n);
    onCount({ merchants_id: id, name: name.trim(), gtin, qty: 0, counted: 0, unsent: 0 }, n, {
      name: name.trim(),
      gtin,
    });
  };

  return (
    <section role="alertdialog" aria-label={s.notOnNoticeTitle} className="question warn">
      <h2>{s.notOnNoticeTitle}</h2>
      <p>{s.notOnNoticeText(gtin)}</p>
      <form onSubmit={record} aria-label={s.recordNew}>
        <label>
          {s.supplierSku}
          <input
            ref={skuField}
            value={sku}
            onChange={(e) => setSku(e.target.value)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={100}
            onKeyDown={(e) => {
              // A scanned SKU ends with Enter: on to the name.
              if (e.key === "Enter") {
                e.preventDefault();
                nameField.current?.focus();
              }
            }}
          />
        </label>
        <label>
          {s.productName}
          <input ref={nameField} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        </label>
        {problem && (
          <p role="alert" className="problem">
            {problem}
          </p>
        )}
        <button type="submit">{s.recordNew}</button>
      </form>
      <h3>{s.orPick}</h3>
      <ul className="choices">
        {lines.map((l) => (
          <li key={l.merchants_id}>
            <button type="button" className="secondary" onClick={() => onTake(l, n)}>
              {l.name || l.merchants_id} · {l.merchants_id}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary outline" onClick={onCancel}>
        {s.dontCount}
      </button>
    </section>
  );
}
