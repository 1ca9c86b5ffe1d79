// Several values chosen from a known list ("is one of Posti or Matkahuolto"): ticks for a short list, and for a
// long one (countries) the chosen values with a remove button each and a list to add one more from.
import { useId } from "react";
import { lowerFirst, useWords } from "../../words/index.ts";

export interface Choice {
  value: string;
  label: string;
}

interface Props {
  legend: string;
  options: Choice[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  /** The answer's message for this value, shown under it. */
  message?: string;
}

const SHORT = 8;

export function ChoiceList({ legend, options, chosen, onChange, message }: Props) {
  const id = useId();
  const t = useWords().t.pricingPage;
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  // Chosen values in the list's order, so that the rule reads the same however they were ticked.
  const change = (values: string[]) =>
    onChange([
      ...options.map((o) => o.value).filter((v) => values.includes(v)),
      ...values.filter((v) => !options.some((o) => o.value === v)),
    ]);
  const error = message !== undefined ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
  return (
    <fieldset className="choices" {...(message !== undefined && { "aria-describedby": `${id}-error` })}>
      <legend>{legend}</legend>
      {options.length <= SHORT ? (
        options.map((o) => (
          <label key={o.value}>
            <input
              type="checkbox"
              {...error}
              checked={chosen.includes(o.value)}
              onChange={(e) => change(e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value))}
            />
            {o.label}
          </label>
        ))
      ) : (
        <>
          <ul className="chips">
            {chosen.map((v) => (
              <li key={v}>
                {labelOf(v)}
                <button
                  type="button"
                  className="outline secondary"
                  aria-label={t.removeThis(labelOf(v))}
                  onClick={() => change(chosen.filter((c) => c !== v))}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
          <select
            aria-label={t.addToList(lowerFirst(legend))}
            {...error}
            value=""
            onChange={(e) => e.target.value && change([...chosen, e.target.value])}
          >
            <option value="">{t.addOne}</option>
            {options
              .filter((o) => !chosen.includes(o.value))
              .map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
          </select>
        </>
      )}
      {message !== undefined && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </fieldset>
  );
}
