// The answer's sentence above the Save button, and the messages of the answer no field of the form shows (each
// already names its place: "Product 2: ..."). Never a JSON pointer.
import type { Problems } from "../../api.ts";

export function FormProblems({ problems, shown }: { problems?: Problems; shown: (path: string) => boolean }) {
  if (!problems) return null;
  const rest = Object.entries(problems.fields).filter(([path]) => !shown(path));
  return (
    <div role="alert" className="problem">
      <strong>{problems.message}</strong>
      {rest.length > 0 && (
        <ul>
          {rest.map(([path, message]) => (
            <li key={path}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
