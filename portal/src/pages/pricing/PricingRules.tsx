// The pricing rules, tested in order: the first whose conditions all hold sets the base price.
import type { Problems } from "../../api.ts";
import { Field } from "../../parts/fields.tsx";
import { stepName, useWords } from "../../words/index.ts";
import { currencySign } from "./choices.ts";
import { CriteriaEditor } from "./CriteriaEditor.tsx";
import { criteriaOf, itemEdits, nextKey, numberOrText, type PricingRuleDraft } from "./pricing-draft.ts";
import { RuleCard } from "./RuleCard.tsx";

interface Props {
  rules: PricingRuleDraft[];
  currency: string;
  onChange: (rules: PricingRuleDraft[]) => void;
  problems?: Problems;
  branches: string[];
}

export function PricingRules({ rules, currency, onChange, problems, branches }: Props) {
  const w = useWords();
  const t = w.t.pricingPage;
  const item = w.t.items.pricing_rule;
  const money = (text: string) => {
    const n = numberOrText(text);
    return typeof n === "number" ? w.money(n, currency) : text;
  };
  return (
    <section aria-labelledby="pricing-rules">
      <h3 id="pricing-rules">{t.pricingRules}</h3>
      <p className="muted">{t.pricingRulesAbout}</p>
      {rules.map((r, i) => {
        const label = stepName(w.t, "pricing_rule", i);
        const at = `/body/pricing_rules/${i}`;
        const { set, move, remove } = itemEdits(rules, i, onChange);
        return (
          <RuleCard
            key={r.key}
            label={label}
            sentence={`${w.criteria(criteriaOf(r.criteria))}: ${money(r.price)}`}
            index={i}
            count={rules.length}
            onMove={move}
            onRemove={remove}
          >
            <div className="row">
              <Field label={t.description} path={`${at}/description`} problems={problems}>
                {(p) => <input {...p} value={r.description} onChange={(e) => set({ description: e.target.value })} />}
              </Field>
              <Field label={t.price(currencySign(w.locale, currency))} path={`${at}/price`} problems={problems}>
                {(p) => (
                  <input {...p} inputMode="decimal" value={r.price} onChange={(e) => set({ price: e.target.value })} />
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
        onClick={() => onChange([...rules, { key: nextKey(), description: "", criteria: [], price: "0.00" }])}
      >
        {t.addStep(item.one)}
      </button>
    </section>
  );
}
