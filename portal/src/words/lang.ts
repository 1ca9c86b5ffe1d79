// Which of the portal's languages to speak: the first of the browser's languages (navigator.languages) that is
// English, Finnish or Swedish; English when none is. Numbers and dates follow the browser's own tag for that
// language (en-US, sv-FI, ...), or a default per language.

export const LANGS = ["en", "fi", "sv"] as const;
export type Lang = (typeof LANGS)[number];

/** A language and the locale that formats numbers and dates for it (a BCP 47 tag). */
export interface Speaker {
  lang: Lang;
  locale: string;
}

export const DEFAULT_LOCALES: Record<Lang, string> = { en: "en-GB", fi: "fi-FI", sv: "sv-SE" };

const isLang = (v: string): v is Lang => (LANGS as readonly string[]).includes(v);

/** The browser's first language the portal speaks, and its tag: ["sv-FI", "en"] is sv, sv-FI. */
export function pickLocale(languages: readonly string[] | undefined): Speaker {
  for (const tag of languages ?? []) {
    const primary = tag.split(/[-_]/)[0]!.toLowerCase();
    if (!isLang(primary)) continue;
    // A tag the platform cannot format with (a typo) falls back to the language's default.
    let locale: string;
    try {
      locale = Intl.getCanonicalLocales(tag.replace(/_/g, "-"))[0] ?? DEFAULT_LOCALES[primary];
    } catch {
      locale = DEFAULT_LOCALES[primary];
    }
    return { lang: primary, locale: locale.includes("-") ? locale : DEFAULT_LOCALES[primary] };
  }
  return { lang: "en", locale: DEFAULT_LOCALES.en };
}

/** The browser's first language the portal speaks; "en" when none is fi, sv or en. */
export const pickLang = (languages: readonly string[] | undefined): Lang => pickLocale(languages).lang;

/** A Lang (its default locale) or a Speaker, as every pure function of words/ takes it. */
export const speakerOf = (s: Lang | Speaker): Speaker =>
  typeof s === "string" ? { lang: s, locale: DEFAULT_LOCALES[s] } : s;

/** Where the language a person chose in the portal is remembered (this browser's, not the account's: a shared
 * computer at a shop keeps the language of the person at it). */
export const CHOSEN_LANGUAGE_KEY = "logistics-portal:language";
/** Each language's name in its own words, for the switch. */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: "English", fi: "Suomi", sv: "Svenska" };

/** The language chosen with the portal's switch, if any. */
export function chosenLanguage(): Lang | undefined {
  try {
    const v = typeof localStorage === "undefined" ? null : localStorage.getItem(CHOSEN_LANGUAGE_KEY);
    return v !== null && isLang(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers `lang` (or forgets the choice: the browser's languages again) and tells every view (useWords). */
export function chooseLanguage(lang: Lang | undefined): void {
  try {
    if (lang) localStorage.setItem(CHOSEN_LANGUAGE_KEY, lang);
    else localStorage.removeItem(CHOSEN_LANGUAGE_KEY);
  } catch {
    // Storage refused (a private window's quota): the choice lasts until the page is left.
    memory = lang;
  }
  window.dispatchEvent(new Event("languagechange"));
}
let memory: Lang | undefined;

/** The languages to speak, in order: the one chosen in the portal first, then the browser's; none outside one. */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === "undefined") return [];
  const own = navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
  const chosen = chosenLanguage() ?? memory;
  // The browser's own tag for the chosen language keeps its region (sv-FI), else the language's default.
  return chosen ? [own.find((t) => t.toLowerCase().startsWith(chosen)) ?? chosen, ...own] : own;
}
