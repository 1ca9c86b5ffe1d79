// One condition of a rule, as the sentence it makes: what is checked ("Order weight"), the comparison ("is over")
// and the value in the unit the editor shows (kg, €), or chosen from a list where the set is known.
import { useQuery } from "@tanstack/react-query";
import { FACT_KINDS } from "../../../../client/index.ts";
import type { Problems, S } from "../../api.ts";
import { Field } from "../../parts/fields.tsx";
import { useWords, type Words } from "../../words/index.ts";
import { ChoiceList, type Choice } from "./ChoiceList.tsx";
import { countries, unitOf } from "./choices.ts";
import { CHOSEN, FACTS, newCriterion, operatorsOf, type CriterionDraft } from "./pricing-draft.ts";
import { settingsQuery } from "./data.ts";
import type { RuleOperator, ShippingFactName } from "../../../../generated/api.ts";
import { useApi } from "../../app/session.ts";

interface Props {
  c: CriterionDraft;
  /** JSON pointer of this criterion in the request body. */
  path: string;
  problems?: Problems;
  /** "Pricing rule 2, condition 1". */
  label: string;
  /** The pickup point chains of the directory. */
  branches: string[];
  onSet: (patch: Partial<CriterionDraft>) => void;
  onRemove: () => void;
}

const METHODS: S["ShippingMethodType"][] = ["pickup", "home", "letter"];

/** The values a fact is chosen from, with what the draft holds already (a chain no longer in the directory too). */
export function choicesOf(w: Words, fact: ShippingFactName, branches: string[], held: string[]): Choice[] {
  const base: Choice[] =
    fact === "pup.branch"
      ? branches.map((b) => ({ value: b, label: w.branch(b) }))
      : fact === "customer.country"
        ? countries(w)
        : METHODS.map((m) => ({ value: m, label: w.t.methods[m] }));
  const extra = held.filter((v) => v && !base.some((o) => o.value === v));
  return [...base, ...extra.map((v) => ({ value: v, label: w.factValue(fact, v) }))];
}

export function Criterion({ c, path, problems, label, branches, onSet, onRemove }: Props) {
  const w = useWords();
  const t = w.t.pricingPage;
  const api = useApi();
  const served = useQuery(settingsQuery(api)).data?.countries ?? ["FI"];
  const list = c.op === "in" || c.op === "not_in";
  const chosen = CHOSEN.has(c.fact) && c.op !== "contains";
  const unit = unitOf(c.fact, w.locale);
  const options = chosen ? choicesOf(w, c.fact, branches, [c.text, ...c.chosen]) : [];
  // A new country condition starts at the first country delivered to, not at the alphabet's first.
  const first = (fact: ShippingFactName) =>
    fact === "customer.country" ? served[0] : choicesOf(w, fact, branches, [])[0]?.value;
  const setFact = (fact: ShippingFactName) => onSet({ ...newCriterion(fact, first(fact)), isNull: false });
  const setOp = (op: RuleOperator) => {
    const wasList = list;
    const nowList = op === "in" || op === "not_in";
    // Keep the value across the change: one chosen value becomes the list's first, and back.
    if (chosen && nowList && !wasList) return onSet({ op, chosen: c.text ? [c.text] : [], isNull: false });
    if (chosen && wasList && !nowList) return onSet({ op, text: c.chosen[0] ?? options[0]?.value ?? "" });
    onSet({ op, isNull: false });
  };
  const valuePath = `${path}/value`;
  const valueLabel = unit ? t.valueIn(unit.sign) : t.value;

  return (
    <div className="criterion" role="group" aria-label={label}>
      <Field label={t.checks} path={`${path}/fact`} problems={problems}>
        {(p) => (
          <select {...p} value={c.fact} onChange={(e) => setFact(e.target.value as ShippingFactName)}>
            {FACTS.map((f) => (
              <option key={f} value={f}>
                {w.t.facts[f].label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t.comparison} path={`${path}/op`} problems={problems}>
        {(p) => (
          <select {...p} value={c.op} onChange={(e) => setOp(e.target.value as RuleOperator)}>
            {operatorsOf(c.fact).map((o) => (
              <option key={o} value={o}>
                {w.operator(o, c.fact)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {chosen && list ? (
        <ChoiceList
          legend={t.values}
          options={options}
          chosen={c.chosen}
          onChange={(values) => onSet({ chosen: values })}
          message={problems?.fields[valuePath]}
        />
      ) : (
        <Field label={valueLabel} path={valuePath} problems={problems}>
          {(p) =>
            chosen ? (
              <select
                {...p}

                value={c.isNull ? "" : c.text}
                onChange={(e) => onSet({ text: e.target.value, isNull: false })}
              >
                {c.isNull && <option value="">{w.t.none}</option>}
                {options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : FACT_KINDS[c.fact] === "boolean" ? (
              <select {...p} value={c.text} onChange={(e) => onSet({ text: e.target.value })}>
                <option value="true">{w.t.yesNo.yes}</option>
                <option value="false">{w.t.yesNo.no}</option>
              </select>
            ) : (
              <input
                {...p}
                inputMode={FACT_KINDS[c.fact] === "number" && !list ? "decimal" : undefined}
                value={c.text}
                placeholder={list ? t.separate : undefined}
                onChange={(e) => onSet({ text: e.target.value, isNull: false })}
              />
            )
          }
        </Field>
      )}
      <button type="button" className="outline secondary remove" aria-label={t.removeThis(label)} onClick={onRemove}>
        ✕
      </button>
    </div>
  );
}
