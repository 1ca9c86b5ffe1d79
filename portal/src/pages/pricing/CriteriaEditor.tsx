// A rule's conditions, all of which must hold for it to apply; none: it always applies.
import type { Problems } from "../../api.ts";
import { lowerFirst, useWords } from "../../words/index.ts";
import { Criterion } from "./Criterion.tsx";
import { itemEdits, newCriterion, type CriterionDraft } from "./pricing-draft.ts";

interface Props {
  criteria: CriterionDraft[];
  onChange: (criteria: CriterionDraft[]) => void;
  /** JSON pointer of the rule's `criteria` in the request body. */
  path: string;
  problems?: Problems;
  /** "Pricing rule 2". */
  ruleLabel: string;
  branches: string[];
}

export function CriteriaEditor({ criteria, onChange, path, problems, ruleLabel, branches }: Props) {
  const w = useWords();
  const condition = lowerFirst(w.t.items.condition.title);
  return (
    <div className="criteria">
      {criteria.map((c, i) => {
        const { set, remove } = itemEdits(criteria, i, onChange);
        return (
          <Criterion
            key={i}
            c={c}
            path={`${path}/${i}`}
            problems={problems}
            label={`${ruleLabel}, ${condition} ${i + 1}`}
            branches={branches}
            onSet={set}
            onRemove={remove}
          />
        );
      })}
      <button
        type="button"
        className="outline"
        onClick={() => onChange([...criteria, newCriterion("order.total_weight")])}
      >
        {w.t.pricingPage.addTo(condition, lowerFirst(ruleLabel))}
      </button>
    </div>
  );
}
