// Why a price is what it is, in the catalogue's words: the base price and the rule that set it, each rule that
// did not apply with its failed condition ("Order weight is over 10 kg: no (it is 1 kg)"), each price change.
import { useWords, type TraceInput } from "../../words/index.ts";

export function Trace(input: TraceInput) {
  const w = useWords();
  return (
    <details className="trace">
      <summary>{w.t.pricingPage.whyThisPrice}</summary>
      <ul>
        {w.trace(input).map((step, i) => (
          <li key={i} className={step.kind}>
            {step.text}
            {step.because && <span className="because">{step.because}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}
