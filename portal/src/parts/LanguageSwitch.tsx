// The portal's language, chosen by the person (remembered in this browser): each language named in its own words.
import { chooseLanguage, LANGS, LANGUAGE_NAMES, type Lang } from "../words/lang.ts";
import { useWords } from "../words/index.ts";

export function LanguageSwitch() {
  const w = useWords();
  return (
    <select
      className="language"
      aria-label={w.t.language}
      value={w.lang}
      onChange={(e) => chooseLanguage(e.target.value as Lang)}
    >
      {LANGS.map((l) => (
        <option key={l} value={l} lang={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}
