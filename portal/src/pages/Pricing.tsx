// Pricing: shipping settings, and one price list at a time in a form editor beside a live preview of what
// checkout would answer for the draft (POST /shipping_options/_preview), before it is saved.
import { signedOut } from "../app/data.ts";
import { useApi } from "../app/session.ts";
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from "react";
import { problemsOf, rebase, type Api, type Problems, type S } from "../api.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";
import { draftOf, inputOf, itemEdits, newDraft, nextKey, type ListDraft } from "./pricing-draft.ts";
import { Preview } from "./Preview.tsx";
import { CriteriaEditor } from "./RuleEditor.tsx";
import { Settings } from "./Settings.tsx";

const METHODS: { key: S["ShippingMethodType"]; label: string }[] = [
  { key: "pickup", label: "Pickup" },
  { key: "home", label: "Home delivery" },
  { key: "letter", label: "Letter" },
];

export function Pricing(_: { rest: string[] }) {
  const api = useApi();
  const onExpired = signedOut;
  const [lists, setLists] = useState<S["PriceList"][]>();
  const [method, setMethod] = useState<S["ShippingMethodType"]>("pickup");
  const [draft, setDraft] = useState<ListDraft>();
  const [problems, setProblems] = useState<Problems>();
  const [liveProblems, setLiveProblems] = useState<Problems>();
  const [saved, setSaved] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const r = await api.GET("/merchant/price_lists");
    if (r.response.status === 401) return onExpired();
    if (r.data) setLists(r.data.items);
  }, [api, onExpired]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (!lists) return;
    const list = lists.find((l) => l.method === method);
    setDraft(list ? draftOf(list) : newDraft(method));
    setProblems(undefined);
  }, [lists, method]);

  const update = (patch: Partial<ListDraft>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setSaved(undefined);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setBusy(true);
    const body = inputOf(draft);
    const r = draft.id
      ? await api.PUT("/merchant/price_lists/{price_list_id}", { params: { path: { price_list_id: draft.id } }, body })
      : await api.POST("/merchant/price_lists/_create", { body });
    setBusy(false);
    if (r.response.status === 401) return onExpired();
    if (r.error) return setProblems(problemsOf(r.error));
    setProblems(undefined);
    await load();
    setSaved(`Saved ${r.data.name}. Checkout answers with it within a second.`);
  };

  // Saving shows the save's answer; until then, the preview's check of the draft, as you type.
  const shown = problems ?? liveProblems;
  return (
    <section>
      <hgroup>
        <h1>Pricing</h1>
        <p>Which shipping methods you offer, and what they cost your customers.</p>
      </hgroup>
      <Settings api={api} onExpired={onExpired} />
      <h2>Price lists</h2>
      <div role="group" aria-label="Price list">
        {METHODS.map((m) => (
          <button
            key={m.key}
            type="button"
            aria-pressed={m.key === method}
            className={m.key === method ? "" : "outline"}
            onClick={() => {
              setMethod(m.key);
              setSaved(undefined);
            }}
          >
            {m.label}
          </button>
        ))}
      </div>
      {!draft ? (
        <p aria-busy="true">Loading…</p>
      ) : (
        <div className="editor">
          <form onSubmit={save} noValidate aria-label={`${METHODS.find((m) => m.key === method)!.label} price list`}>
            {!draft.id && (
              <p className="muted">
                You have no {method} price list yet: {method} is not offered until you save one.
              </p>
            )}
            <div className="row">
              <Field label="Name" path="/body/name" problems={shown}>
                {(p) => <input {...p} value={draft.name} onChange={(e) => update({ name: e.target.value })} />}
              </Field>
              <Field label="Currency" path="/body/currency" problems={shown}>
                {(p) => (
                  <input
                    {...p}
                    value={draft.currency}
                    maxLength={3}
                    onChange={(e) => update({ currency: e.target.value.toUpperCase() })}
                  />
                )}
              </Field>
              <Field label="VAT %" path="/body/tax" problems={shown}>
                {(p) => (
                  <input
                    {...p}
                    inputMode="decimal"
                    value={draft.tax}
                    onChange={(e) => update({ tax: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Fallback price" path="/body/fallback_price" problems={shown}>
                {(p) => (
                  <input
                    {...p}
                    inputMode="decimal"
                    value={draft.fallback_price}
                    onChange={(e) => update({ fallback_price: e.target.value })}
                  />
                )}
              </Field>
            </div>

            <h3>Pricing rules</h3>
            <p className="muted">
              Tested in order: the first whose criteria all match sets the base price; if none does, the fallback price.
            </p>
            {draft.pricing_rules.map((r, i) => {
              const label = `Pricing rule ${i + 1}`;
              const { set, move, remove } = itemEdits(draft.pricing_rules, i, (pricing_rules) =>
                update({ pricing_rules }),
              );
              return (
                <RuleCard
                  key={r.key}
                  label={label}
                  index={i}
                  count={draft.pricing_rules.length}
                  onMove={move}
                  onRemove={remove}
                >
                  <div className="row">
                    <Field
                      label={`Description of ${label.toLowerCase()}`}
                      path={`/body/pricing_rules/${i}/description`}
                      problems={shown}
                    >
                      {(p) => (
                        <input {...p} value={r.description} onChange={(e) => set({ description: e.target.value })} />
                      )}
                    </Field>
                    <Field
                      label={`Price of ${label.toLowerCase()}`}
                      path={`/body/pricing_rules/${i}/price`}
                      problems={shown}
                    >
                      {(p) => (
                        <input
                          {...p}
                          inputMode="decimal"
                          value={r.price}
                          onChange={(e) => set({ price: e.target.value })}
                        />
                      )}
                    </Field>
                  </div>
                  <CriteriaEditor
                    criteria={r.criteria}
                    onChange={(criteria) => set({ criteria })}
                    path={`/body/pricing_rules/${i}/criteria`}
                    problems={shown}
                    ruleLabel={label.toLowerCase()}
                  />
                </RuleCard>
              );
            })}
            <button
              type="button"
              className="secondary"
              onClick={() =>
                update({
                  pricing_rules: [
                    ...draft.pricing_rules,
                    { key: nextKey(), description: "", criteria: [], price: "0" },
                  ],
                })
              }
            >
              Add pricing rule
            </button>

            <h3>Modification rules</h3>
            <p className="muted">Each one whose criteria all match adjusts the price, in order.</p>
            {draft.modification_rules.map((r, i) => {
              const label = `Modification rule ${i + 1}`;
              const { set, move, remove } = itemEdits(draft.modification_rules, i, (modification_rules) =>
                update({ modification_rules }),
              );
              return (
                <RuleCard
                  key={r.key}
                  label={label}
                  index={i}
                  count={draft.modification_rules.length}
                  onMove={move}
                  onRemove={remove}
                >
                  <div className="row">
                    <Field
                      label={`Description of ${label.toLowerCase()}`}
                      path={`/body/modification_rules/${i}/description`}
                      problems={shown}
                    >
                      {(p) => (
                        <input {...p} value={r.description} onChange={(e) => set({ description: e.target.value })} />
                      )}
                    </Field>
                    <Field
                      label={`Adjustment of ${label.toLowerCase()}`}
                      path={`/body/modification_rules/${i}/adjust`}
                      problems={shown}
                    >
                      {(p) => (
                        <select
                          {...p}
                          value={r.adjust}
                          onChange={(e) => set({ adjust: e.target.value as typeof r.adjust })}
                        >
                          <option value="add">add</option>
                          <option value="multiply">multiply by</option>
                          <option value="set">set to</option>
                        </select>
                      )}
                    </Field>
                    <Field
                      label={`Amount of ${label.toLowerCase()}`}
                      path={`/body/modification_rules/${i}/amount`}
                      problems={shown}
                    >
                      {(p) => (
                        <input
                          {...p}
                          inputMode="decimal"
                          value={r.amount}
                          onChange={(e) => set({ amount: e.target.value })}
                        />
                      )}
                    </Field>
                  </div>
                  <CriteriaEditor
                    criteria={r.criteria}
                    onChange={(criteria) => set({ criteria })}
                    path={`/body/modification_rules/${i}/criteria`}
                    problems={shown}
                    ruleLabel={label.toLowerCase()}
                  />
                </RuleCard>
              );
            })}
            <button
              type="button"
              className="secondary"
              onClick={() =>
                update({
                  modification_rules: [
                    ...draft.modification_rules,
                    { key: nextKey(), description: "", criteria: [], adjust: "add", amount: "0" },
                  ],
                })
              }
            >
              Add modification rule
            </button>
            <hr />
            <ProblemBanner
              problems={problems}
              shown={[
                "/body/name",
                "/body/currency",
                "/body/tax",
                "/body/fallback_price",
                "/body/pricing_rules",
                "/body/modification_rules",
              ]}
            />
            {saved && <p role="status">{saved}</p>}
            <button type="submit" aria-busy={busy} disabled={busy}>
              Save price list
            </button>
          </form>
          <aside>
            <Preview api={api} draft={draft} onProblems={(p) => setLiveProblems(rebase(p, "/body/price_lists/0"))} />
          </aside>
        </div>
      )}
    </section>
  );
}

/** One rule of an ordered list: its name, and moving it up or down (order decides) or removing it. */
function RuleCard({
  label,
  index,
  count,
  onMove,
  onRemove,
  children,
}: {
  label: string;
  index: number;
  count: number;
  onMove: (by: number) => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  return (
    <article className="rule" aria-label={label}>
      <header>
        <strong>{label}</strong>
        <span className="actions">
          <button
            type="button"
            className="outline"
            aria-label={`Move ${label} up`}
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="outline"
            aria-label={`Move ${label} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
          <button type="button" className="outline secondary" aria-label={`Remove ${label}`} onClick={onRemove}>
            Remove
          </button>
        </span>
      </header>
      {children}
    </article>
  );
}
