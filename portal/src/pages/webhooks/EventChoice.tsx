// Which events an endpoint receives: one checkbox per event type, in words, with the API's message beside it.
import type { Problems } from "../../api.ts";
import { EVENT_TYPES, EVENT_WORDS, type EventType } from "./words.ts";

export function EventChoice({
  chosen,
  onChange,
  problems,
}: {
  chosen: EventType[];
  onChange: (c: EventType[]) => void;
  problems?: Problems;
}) {
  const message = problems?.fields["/body/event_types"];
  return (
    <fieldset aria-invalid={message ? true : undefined}>
      <legend>Events to send</legend>
      {EVENT_TYPES.map((t) => (
        <label key={t}>
          <input
            type="checkbox"
            checked={chosen.includes(t)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, t] : chosen.filter((x) => x !== t))}
          />{" "}
          {EVENT_WORDS[t]}
        </label>
      ))}
      {message && <small className="field-error">{message}</small>}
    </fieldset>
  );
}
