// The product lines of the announce and modify forms: one group per line ("Product 2"), its fields in a grid whose
// columns stay lined up when a message shows under a field (each line's fields start at the same height), two
// columns on a phone. Each field shows the API's message for it; a line that has arrivals keeps its product.
import type { Problems } from "../../api.ts";
import { Field } from "../../parts/fields.tsx";
import { useWords, type Words } from "../../words/index.ts";

export interface LineDraft {
  key: number;
  merchants_id: string;
  name: string;
  gtin: string;
  qty: string;
  price: string;
  /** Items of the line that have arrived already (modify only): it cannot be removed nor cut below this. */
  arrived?: number;
}
export const LINE_FIELDS = ["merchants_id", "name", "gtin", "qty", "purchasePrice"] as const;

let lastKey = 0;
export const newLine = (l: Partial<Omit<LineDraft, "key">> = {}): LineDraft => ({
  key: ++lastKey,
  merchants_id: "",
  name: "",
  gtin: "",
  qty: "1",
  price: "",
  ...l,
});

interface Props {
  lines: LineDraft[];
  onChange: (lines: LineDraft[]) => void;
  /** Where the API puts the lines' problems: /body/products or /body/products_all. */
  at: string;
  problems?: Problems;
}

/** The line's own messages, without the "Product 2: " its group's legend already says. */
function lineProblems(w: Words, problems: Problems | undefined, at: string, i: number): Problems | undefined {
  if (!problems) return undefined;
  const prefix = w.t.where([`${w.t.items.product.title} ${i + 1}`], "");
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(problems.fields))
    if (path.startsWith(`${at}/${i}/`))
      fields[path] = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return { ...problems, fields };
}

export function ProductLines({ lines, onChange, at, problems }: Props) {
  const w = useWords();
  const ts = w.t.shipments;
  const set = (i: number, patch: Partial<LineDraft>) =>
    onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  return (
    <>
      {lines.map((l, i) => {
        const path = (f: (typeof LINE_FIELDS)[number]) => `${at}/${i}/${f}`;
        const mine = lineProblems(w, problems, at, i);
        const arrived = l.arrived ?? 0;
        return (
          <fieldset key={l.key} className="product-line">
            <legend>
              {w.t.items.product.title} {i + 1}
            </legend>
            <Field label={ts.productCode} path={path("merchants_id")} problems={mine}>
              {(p) => (
                <input
                  {...p}
                  value={l.merchants_id}
                  readOnly={arrived > 0}
                  onChange={(e) => set(i, { merchants_id: e.target.value })}
                />
              )}
            </Field>
            <Field label={ts.name} path={path("name")} problems={mine}>
              {(p) => <input {...p} value={l.name} onChange={(e) => set(i, { name: e.target.value })} />}
            </Field>
            <Field label={ts.gtinBarcode} path={path("gtin")} problems={mine}>
              {(p) => (
                <input {...p} value={l.gtin} inputMode="numeric" onChange={(e) => set(i, { gtin: e.target.value })} />
              )}
            </Field>
            <Field label={ts.quantity} path={path("qty")} problems={mine}>
              {(p) => (
                <input
                  {...p}
                  type="number"
                  min={Math.max(1, arrived)}
                  value={l.qty}
                  onChange={(e) => set(i, { qty: e.target.value })}
                />
              )}
            </Field>
            <Field label={ts.purchasePrice} path={path("purchasePrice")} problems={mine}>
              {(p) => (
                <input {...p} inputMode="decimal" value={l.price} onChange={(e) => set(i, { price: e.target.value })} />
              )}
            </Field>
            <button
              type="button"
              className="outline secondary remove"
              aria-label={ts.removeProduct(i + 1)}
              disabled={lines.length === 1 || arrived > 0}
              onClick={() => onChange(lines.filter((_, j) => j !== i))}
            >
              {ts.remove}
            </button>
            {arrived > 0 && <small className="muted arrived">{ts.alreadyArrived(w.number(arrived))}</small>}
          </fieldset>
        );
      })}
      <p>
        <button type="button" className="outline" onClick={() => onChange([...lines, newLine()])}>
          {ts.addProduct}
        </button>
      </p>
    </>
  );
}
