// Labelled inputs that show the API's message for their JSON pointer next to the field, in the catalogue's words
// (the page's one language, as every word on it).
import { useId, type ReactNode } from "react";
import type { Problems } from "../api.ts";

interface FieldProps {
  label: string;
  path: string;
  problems?: Problems;
  children: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}

/** A label, the control (given its id and error wiring) and the message the API gave for `path`, if any. */
export function Field({ label, path, problems, children }: FieldProps) {
  const id = useId();
  const message = problems?.fields[path];
  return (
    <label htmlFor={id}>
      {label}
      {children({
        id,
        ...(message !== undefined && { "aria-invalid": true as const, "aria-describedby": `${id}-error` }),
      })}
      {message !== undefined && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </label>
  );
}

/**
 * The portal's one problem banner: the answer's sentence (app/data.ts problemsOf) and the field messages no field on
 * the page shows (`shown`: the paths of the fields it has, each with what is under it, or a test of a path). An
 * alert, unless `quiet` (what a draft's check says while it is typed, before anything is sent).
 */
export function ProblemBanner({
  problems,
  shown = [],
  quiet,
}: {
  problems?: Problems;
  shown?: string[] | ((path: string) => boolean);
  quiet?: boolean;
}) {
  if (!problems) return null;
  const isShown =
    typeof shown === "function" ? shown : (p: string) => shown.some((s) => p === s || p.startsWith(`${s}/`));
  const rest = Object.entries(problems.fields).filter(([p]) => !isShown(p));
  if (!problems.message && rest.length === 0) return null;
  return (
    // eslint-disable-next-line no-restricted-syntax -- the portal's one problem banner
    <div role={quiet ? undefined : "alert"} className="problem">
      {problems.message && <strong>{problems.message}</strong>}
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
