// Announce a shipment, or modify one while its `actions` allow it. Sent as typed: the API's validation is the one
// that counts, and one answer lists every problem, each shown next to its field in the catalogue's plain words.
// Unsaved edits are not lost by a stray click (the leave guard asks first).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { navigate } from "../../app/location.ts";
import { problemsOf } from "../../app/data.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { useLeaveGuard } from "../../parts/useLeaveGuard.ts";
import { useWords } from "../../words/index.ts";
import { shipmentQuery, useSaveShipment } from "./data.ts";
import { LINE_FIELDS, newLine, ProductLines, type LineDraft } from "./ProductLines.tsx";
import type { InboundShipment, InboundShipmentCreate, ProductLineInput } from "../../../../generated/api.ts";
import { useApi } from "../../app/session.ts";

interface Draft {
  ref: string;
  sender: string;
  expected: string;
  lines: LineDraft[];
}

export function ShipmentForm({ id }: { id?: string }) {
  if (!id) return <Editor initial={{ ref: "", sender: "", expected: "", lines: [newLine()] }} />;
  return <EditShipment id={id} />;
}

function EditShipment({ id }: { id: string }) {
  const w = useWords();
  const ts = w.t.shipments;
  const api = useApi();
  const shipment = useQuery(shipmentQuery(api, id));
  if (shipment.isPending) return <p aria-busy="true">{ts.loadingOne}</p>;
  if (shipment.isError)
    return (
      <section>
        <ProblemBanner problems={problemsOf(w, shipment.error, "getInboundShipment")} />
        <Link href="/shipments">{ts.backToList}</Link>
      </section>
    );
  const s = shipment.data;
  if (!(s.actions ?? []).includes("modify"))
    return (
      <section>
        <h1 className="wrap-anywhere">{ts.edit(s.merchants_ref)}</h1>
        <p role="alert">{ts.closedForEdits(w.t.statuses[s.status])}</p>
        <Link href={`/shipments/${s.id}`}>{ts.backToOne}</Link>
      </section>
    );
  return <Editor id={id} initial={draftOf(s)} />;
}

const draftOf = (s: InboundShipment): Draft => ({
  ref: s.merchants_ref,
  sender: s.sender_name,
  expected: s.expected_at_wh ?? "",
  lines: s.products.map((l) =>
    newLine({
      merchants_id: l.product.merchants_id,
      name: l.product.name,
      gtin: l.product.gtin,
      qty: String(l.qty),
      price: l.purchasePrice === undefined ? "" : String(l.purchasePrice),
      arrived: l.arrivedQty,
    }),
  ),
});

/** A number as typed ("1,5" is 1.5); what is no number goes as typed, for the API to name. */
const numberOf = (typed: string): number => {
  const t = typed.trim().replace(",", ".");
  const n = Number(t);
  return (t !== "" && Number.isFinite(n) ? n : typed) as number;
};

const lineOf = (l: LineDraft): ProductLineInput =>
  ({
    merchants_id: l.merchants_id.trim(),
    ...(l.qty.trim() !== "" && { qty: numberOf(l.qty) }),
    ...(l.name.trim() && { name: l.name.trim() }),
    ...(l.gtin.trim() && { gtin: l.gtin.trim() }),
    ...(l.price.trim() && { purchasePrice: numberOf(l.price) }),
  }) as ProductLineInput;

const same = (a: Draft, b: Draft) =>
  JSON.stringify({ ...a, lines: a.lines.map(({ key: _, arrived: __, ...l }) => l) }) ===
  JSON.stringify({ ...b, lines: b.lines.map(({ key: _, arrived: __, ...l }) => l) });

function Editor({ id, initial }: { id?: string; initial: Draft }) {
  const w = useWords();
  const ts = w.t.shipments;
  const [draft, setDraft] = useState(initial);
  const save = useSaveShipment(id);
  const [saved, setSaved] = useState<string>();
  useLeaveGuard(!saved && !same(draft, initial));
  // Away only once the guard is off (its effect goes first), so that leaving asks nothing.
  useEffect(() => {
    if (saved) navigate(`/shipments/${saved}`);
  }, [saved]);

  const form = id ? "modifyInboundShipment" : "createInboundShipment";
  const at = id ? "/body/products_all" : "/body/products";
  const problems = problemsOf(w, save.error, form);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: InboundShipmentCreate = {
      merchants_ref: draft.ref.trim(),
      sender_name: draft.sender.trim(),
      products: draft.lines.map(lineOf),
      ...(draft.expected && { expected_at_wh: draft.expected }),
    };
    save.mutate(body, { onSuccess: setSaved });
  };
  const shown = (path: string) =>
    ["/body/merchants_ref", "/body/sender_name", "/body/expected_at_wh"].includes(path) ||
    draft.lines.some((_, i) => LINE_FIELDS.some((f) => path === `${at}/${i}/${f}`));
  const title = id ? ts.edit(initial.ref) : ts.announceOne;
  return (
    <section>
      <nav aria-label={w.t.common.breadcrumb}>
        <ul>
          <li>
            <Link href="/shipments">{ts.title}</Link>
          </li>
          {id && (
            <li className="wrap-anywhere">
              <Link href={`/shipments/${id}`}>{initial.ref}</Link>
            </li>
          )}
          <li>{id ? ts.editCrumb : ts.announceCrumb}</li>
        </ul>
      </nav>
      <h1 className="wrap-anywhere">{title}</h1>
      <form onSubmit={submit} noValidate aria-label={title} className="shipment-form">
        <div className="shipment-head">
          <Field label={ts.yourReference} path="/body/merchants_ref" problems={problems}>
            {(p) => (
              <input
                {...p}
                value={draft.ref}
                placeholder={ts.referenceExample}
                onChange={(e) => set({ ref: e.target.value })}
              />
            )}
          </Field>
          <Field label={ts.sender} path="/body/sender_name" problems={problems}>
            {(p) => <input {...p} value={draft.sender} onChange={(e) => set({ sender: e.target.value })} />}
          </Field>
          <Field label={ts.expectedOptional} path="/body/expected_at_wh" problems={problems}>
            {(p) => (
              <input {...p} type="date" value={draft.expected} onChange={(e) => set({ expected: e.target.value })} />
            )}
          </Field>
        </div>
        <h2>{ts.products}</h2>
        <ProductLines lines={draft.lines} onChange={(lines) => set({ lines })} at={at} problems={problems} />
        <ProblemBanner problems={problems} shown={shown} />
        <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
          {id ? ts.saveChanges : ts.announce}
        </button>
      </form>
    </section>
  );
}
