// Which events an endpoint receives: one checkbox per event type, in words, with the API's message beside it.
import type { Problems } from "../../api.ts";
import { useWords } from "../../words/index.ts";
import type { WebhookEventType } from "../../../../generated/api.ts";

export function EventChoice({
  chosen,
  onChange,
  problems,
}: {
  chosen: WebhookEventType[];
  onChange: (c: WebhookEventType[]) => void;
  problems?: Problems;
}) {
  const { t } = useWords();
  const message = problems?.fields["/body/event_types"];
  return (
    <fieldset aria-invalid={message ? true : undefined}>
      <legend>{t.webhooks.eventsToSend}</legend>
      {(Object.keys(t.eventTypes) as WebhookEventType[]).map((type) => (
        <label key={type}>
          <input
            type="checkbox"
            checked={chosen.includes(type)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, type] : chosen.filter((x) => x !== type))}
          />{" "}
          <span>{t.eventTypes[type]}</span>
        </label>
      ))}
      {message && <small className="field-error">{message}</small>}
    </fieldset>
  );
}
