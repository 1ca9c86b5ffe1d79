// A signing secret, shown once (after creating an endpoint or rotating its secret), with a Copy button.
import { useId, type ReactNode } from "react";
import { CopyButton } from "../../parts/CopyButton.tsx";
import { useWords } from "../../words/index.ts";

export function SecretOnce({
  title,
  secret,
  children,
  onDone,
}: {
  title: string;
  secret: string;
  children: ReactNode;
  onDone: () => void;
}) {
  const id = useId().replace(/:/g, "");
  const tw = useWords().t.webhooks;
  return (
    <article aria-labelledby={`${id}-title`} className="secret-once">
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <pre id={`${id}-secret`}>
        <code>{secret}</code>
      </pre>
      <div className="secret-actions">
        <CopyButton text={secret} label={tw.copySecret} target={`${id}-secret`} />
        <button type="button" className="outline" onClick={onDone}>
          {tw.stored}
        </button>
      </div>
    </article>
  );
}
