// Hash routes (#/shipments/<id>): the server serves one page at /portal whatever the view.
import { useEffect, useState } from "react";

export function useRoute(): string[] {
  const read = () => window.location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const onChange = () => setParts(read());
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return parts;
}

export const go = (...parts: string[]) => {
  window.location.hash = `#/${parts.map(encodeURIComponent).join("/")}`;
};
