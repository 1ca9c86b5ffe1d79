// The price changes (modification rules): each one whose conditions all hold adjusts the price, in order.
import type { Problems, S } from "../../api.ts";
import { Field } from "../../parts/fields.tsx";
import { lowerFirst, stepName, useWords } from "../../words/index.ts";
import { currencySign } from "./choices.ts";
import { CriteriaEditor } from "./CriteriaEditor.tsx";
import { criteriaOf, itemEdits, nextKey, numberOrText, type ModificationDraft } from "./pricing-draft.ts";
import { RuleCard } from "./RuleCard.tsx";

interface Props {
  rules: ModificationDraft[];
  currency: string;
  onChange: (rules: ModificationDraft[]) => void;
  problems?: Problems;
  branches: string[];
}

const ADJUSTS: S["ModificationRule"]["adjust"][] = ["add", "multiply", "set"];

export function PriceChanges({ rules, currency, onChange, problems, branches }: Props) {
  const w = useWords();
  const t = w.t.pricingPage;
  const item = w.t.items.modification_rule;
  const sign = currencySign(w.locale, currency);
  const what = (r: ModificationDraft) => {
    const n = numberOrText(r.amount);
    return typeof n === "number" ? lowerFirst(w.adjustment(r.adjust, n, currency)) : r.amount;
  };
  return (
    <section aria-labelledby="price-changes">
      <h3 id="price-changes">{t.priceChanges}</h3>
      <p className="muted">{t.priceChangesAbout}</p>
      {rules.map((r, i) => {
        const label = stepName(w.t, "modification_rule", i);
        const at = `/body/modification_rules/${i}`;
        const { set, move, remove } = itemEdits(rules, i, onChange);
        return (
          <RuleCard
            key={r.key}
            label={label}
            sentence={`${w.criteria(criteriaOf(r.criteria))}: ${what(r)}`}
            index={i}
            count={rules.length}
            onMove={move}
            onRemove={remove}
          >
            <div className="row">
              <Field label={t.description} path={`${at}/description`} problems={problems}>
                {(p) => <input {...p} value={r.description} onChange={(e) => set({ description: e.target.value })} />}
              </Field>
              <Field label={t.change} path={`${at}/adjust`} problems={problems}>
                {(p) => (
                  <select
                    {...p}
                    value={r.adjust}
                    onChange={(e) => set({ adjust: e.target.value as ModificationDraft["adjust"] })}
                  >
                    {ADJUSTS.map((a) => (
                      <option key={a} value={a}>
                        {w.t.adjust[a]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                label={r.adjust === "multiply" ? t.factor : t.amount(sign)}
                path={`${at}/amount`}
                problems={problems}
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
              path={`${at}/criteria`}
              problems={problems}
              ruleLabel={label}
              branches={branches}
            />
          </RuleCard>
        );
      })}
      <button
        type="button"
        className="secondary"
        onClick={() =>
          onChange([...rules, { key: nextKey(), description: "", criteria: [], adjust: "add", amount: "0.00" }])
        }
      >
        {t.addStep(item.one)}
      </button>
    </section>
  );
}
