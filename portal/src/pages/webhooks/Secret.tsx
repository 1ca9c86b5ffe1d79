// A signing secret, shown once (after creating an endpoint or rotating its secret), with a Copy button.
import { useId, type ReactNode } from "react";
import { CopyButton } from "../../parts/CopyButton.tsx";

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
  return (
    <article aria-labelledby={`${id}-title`} className="secret-once">
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <pre id={`${id}-secret`}>
        <code>{secret}</code>
      </pre>
      <div className="secret-actions">
        <CopyButton text={secret} label="Copy secret" target={`${id}-secret`} />
        <button type="button" className="outline" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </article>
  );
}
