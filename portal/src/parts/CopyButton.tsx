// Copies a text (a new secret, a snippet) and says so in a live region; where the browser refuses the
// clipboard, the text is selected instead so that the person can copy it by hand.
import { useState } from "react";

export function CopyButton({ text, label = "Copy", target }: { text: string; label?: string; target?: string }) {
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid("Copied.");
    } catch {
      const el = target ? document.getElementById(target) : null;
      if (el) window.getSelection()?.selectAllChildren(el);
      setSaid("Selected: press Ctrl+C (or ⌘C) to copy.");
    }
  };
  return (
    <>
      <button type="button" className="secondary fit" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="muted">
        {said}
      </span>
    </>
  );
}
