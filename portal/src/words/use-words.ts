// The words for the browser's languages in a component, again when the user changes them (languagechange).
import { useMemo, useSyncExternalStore } from "react";
import { browserLanguages } from "./lang.ts";
import { words, type Words } from "./words.ts";

const subscribe = (changed: () => void) => {
  window.addEventListener("languagechange", changed);
  return () => window.removeEventListener("languagechange", changed);
};
// The same string while the languages stay the same, so that React sees no change.
const snapshot = () => browserLanguages().join(",");

export function useWords(): Words {
  const languages = useSyncExternalStore(subscribe, snapshot, () => "");
  return useMemo(() => words(languages ? languages.split(",") : []), [languages]);
}
