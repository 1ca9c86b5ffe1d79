// One rule of an ordered list: its name, the rule as a sentence, moving it up or down (order decides) or removing it.
import type { ReactNode } from "react";
import { useWords } from "../../words/index.ts";

interface Props {
  /** "Pricing rule 2", "Price change 1". */
  label: string;
  /** The rule in words: "Pickup point chain is Posti: €3.90". */
  sentence: string;
  index: number;
  count: number;
  onMove: (by: number) => void;
  onRemove: () => void;
  children: ReactNode;
}

export function RuleCard({ label, sentence, index, count, onMove, onRemove, children }: Props) {
  const t = useWords().t.pricingPage;
  return (
    <article className="rule" aria-label={label}>
      <header>
        <div>
          <strong>{label}</strong>
          <p className="sentence">{sentence}</p>
        </div>
        <span className="actions">
          <button
            type="button"
            className="outline"
            aria-label={t.moveUp(label)}
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="outline"
            aria-label={t.moveDown(label)}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
          <button type="button" className="destructive outline" aria-label={t.removeThis(label)} onClick={onRemove}>
            {t.remove}
          </button>
        </span>
      </header>
      {children}
    </article>
  );
}
