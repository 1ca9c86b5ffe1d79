// Copies a text (a new secret, a snippet) and says so in a live region; where the browser refuses the
// clipboard, the text is selected instead so that the person can copy it by hand.
import { useState } from "react";
import { useWords } from "../words/index.ts";

export function CopyButton({ text, label, target }: { text: string; label?: string; target?: string }) {
  const { t } = useWords();
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid(t.common.copied);
    } catch {
      const el = target ? document.getElementById(target) : null;
      if (el) window.getSelection()?.selectAllChildren(el);
      setSaid(t.common.selectedToCopy);
    }
  };
  return (
    <>
      <button type="button" className="secondary fit" onClick={() => void copy()}>
        {label ?? t.common.copy}
      </button>
      <span role="status" className="muted">
        {said}
      </span>
    </>
  );
}
