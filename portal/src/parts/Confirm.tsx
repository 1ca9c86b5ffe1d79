// A confirmation step before an action that cannot be undone (rotate a secret, disable, withdraw, remove):
// a modal <dialog> (focus stays inside, Escape cancels) that names what will happen in plain words.
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useWords } from "../words/index.ts";

export interface ConfirmProps {
  /** The question, e.g. "Withdraw shipment PO-1?" */
  title: string;
  /** What happens, in a sentence or two. */
  children: ReactNode;
  /** The button that does it, e.g. "Withdraw shipment". */
  confirmLabel: string;
  /** The way out, where "Cancel" could be read as the action itself (e.g. "Keep it" beside "Withdraw"). */
  cancelLabel?: string;
  /** Without `form`: what the confirm button does. */
  onConfirm?: () => void;
  onCancel: () => void;
  busy?: boolean;
  /** The id of a form inside `children` that the confirm button submits (Enter in its fields does too). */
  form?: string;
  className?: string;
  /** The action removes or ends something (remove, withdraw, revoke, turn off, discard): its button says so by its style. */
  destructive?: boolean;
}

export function Confirm({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy,
  form,
  className,
  destructive,
}: ConfirmProps) {
  const { t } = useWords();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    // eslint-disable-next-line no-restricted-syntax -- the portal's one dialog
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    // eslint-disable-next-line no-restricted-syntax -- the portal's one dialog
    <dialog ref={ref} className={className} aria-labelledby={titleId} onCancel={onCancel}>
      <article>
        <h2 id={titleId}>{title}</h2>
        <div>{children}</div>
        <footer>
          <button type="button" className="secondary" onClick={onCancel}>
            {cancelLabel ?? t.common.cancel}
          </button>
          <button
            type={form ? "submit" : "button"}
            className={destructive ? "destructive" : undefined}
            form={form}
            onClick={form ? undefined : onConfirm}
            aria-busy={busy}
            disabled={busy}
          >
            {confirmLabel}
          </button>
        </footer>
      </article>
    </dialog>
  );
}

/** State for one pending confirmation: `ask(x)` opens it for x, `dialog(render)` renders it while open. */
export function useConfirm<T>() {
  const [pending, setPending] = useState<T>();
  return {
    pending,
    ask: (x: T) => setPending(x),
    close: () => setPending(undefined),
  };
}
