// One rule's criteria: the fact from the API's vocabulary, an operator that fact allows, and the value.
import { FACT_KINDS } from "../../../client/index.ts";
import type { Problems } from "../api.ts";
import { Field } from "../parts/fields.tsx";
import { FACTS, itemEdits, operatorsOf, type CriterionDraft, type Fact } from "./pricing-draft.ts";

interface Props {
  criteria: CriterionDraft[];
  onChange: (criteria: CriterionDraft[]) => void;
  /** JSON pointer of the rule's `criteria` in the request body. */
  path: string;
  problems?: Problems;
  ruleLabel: string;
}

export function CriteriaEditor({ criteria, onChange, path, problems, ruleLabel }: Props) {
  return (
    <div>
      {criteria.length === 0 && <p className="muted">No criteria: always applies.</p>}
      {criteria.map((c, i) => {
        const { set, remove } = itemEdits(criteria, i, onChange);
        const ops = operatorsOf(c.fact);
        const kind = FACT_KINDS[c.fact];
        return (
          <div className="criterion" key={i} role="group" aria-label={`${ruleLabel}, criterion ${i + 1}`}>
            <Field label="Fact" path={`${path}/${i}/fact`} problems={problems}>
              {(p) => (
                <select
                  {...p}
                  value={c.fact}
                  onChange={(e) => {
                    const fact = e.target.value as Fact;
                    set({ fact, op: operatorsOf(fact).includes(c.op) ? c.op : operatorsOf(fact)[0]! });
                  }}
                >
                  {FACTS.map((f) => (
                    <option key={f} value={f}>
                      {f}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Operator" path={`${path}/${i}/op`} problems={problems}>
              {(p) => (
                <select {...p} value={c.op} onChange={(e) => set({ op: e.target.value as CriterionDraft["op"] })}>
                  {ops.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Value" path={`${path}/${i}/value`} problems={problems}>
              {(p) =>
                kind === "boolean" && c.op !== "in" && c.op !== "not_in" ? (
                  <select {...p} value={c.text} onChange={(e) => set({ text: e.target.value })}>
                    <option value="true">true</option>
                    <option value="false">false</option>
                  </select>
                ) : (
                  <input
                    {...p}
                    value={c.text}
                    placeholder={
                      c.op === "in" || c.op === "not_in" ? "comma, separated" : kind === "number" ? "a number" : "text"
                    }
                    onChange={(e) => set({ text: e.target.value })}
                  />
                )
              }
            </Field>
            <button
              type="button"
              className="outline secondary"
              aria-label={`Remove criterion ${i + 1} of ${ruleLabel}`}
              onClick={remove}
            >
              ✕
            </button>
          </div>
        );
      })}
      <button
        type="button"
        className="outline"
        onClick={() => onChange([...criteria, { fact: "order.total_weight", op: "<=", text: "" }])}
      >
        Add criterion to {ruleLabel}
      </button>
    </div>
  );
}
