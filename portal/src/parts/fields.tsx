// Labelled inputs that show the API's message for their JSON pointer next to the field, in the catalogue's words
// (the browser's language; marked with `lang`, since the page's own labels are English).
import { useId, type ReactNode } from "react";
import type { Problems } from "../api.ts";
import { useWords } from "../words/index.ts";

interface FieldProps {
  label: string;
  path: string;
  problems?: Problems;
  children: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}

/** A label, the control (given its id and error wiring) and the message the API gave for `path`, if any. */
export function Field({ label, path, problems, children }: FieldProps) {
  const id = useId();
  const { lang } = useWords();
  const message = problems?.fields[path];
  return (
    <label htmlFor={id}>
      {label}
      {children({
        id,
        ...(message !== undefined && { "aria-invalid": true as const, "aria-describedby": `${id}-error` }),
      })}
      {message !== undefined && (
        <small id={`${id}-error`} className="field-error" lang={lang}>
          {message}
        </small>
      )}
    </label>
  );
}

/** The answer's sentence and any field messages no field on the page shows. */
export function ProblemBanner({ problems, shown = [] }: { problems?: Problems; shown?: string[] }) {
  const { lang } = useWords();
  if (!problems) return null;
  const rest = Object.entries(problems.fields).filter(([p]) => !shown.some((s) => p === s || p.startsWith(`${s}/`)));
  return (
    <div role="alert" className="problem" lang={lang}>
      <strong>{problems.message}</strong>
      {rest.length > 0 && (
        <ul>
          {rest.map(([p, m]) => (
            <li key={p}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
