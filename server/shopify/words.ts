// What a shopper reads in Shopify's checkout from our rates, in the languages of our shops; English for any other
// `locale` Shopify sends (`fi`, `sv-SE`, `en-US`: its language part decides).
const WORDS = {
  en: { home: "Home delivery", letter: "Letter to your mailbox", hours: "Opening hours" },
  fi: { home: "Kotiinkuljetus", letter: "Kirjeenä postilaatikkoon", hours: "Aukioloajat" },
  sv: { home: "Hemleverans", letter: "Brev till brevlådan", hours: "Öppettider" },
} as const;

export type RateWords = (typeof WORDS)[keyof typeof WORDS];

export function rateWords(locale: string | null | undefined): RateWords {
  const language = (locale ?? "").toLowerCase().split(/[-_]/)[0]!;
  return Object.hasOwn(WORDS, language) ? WORDS[language as keyof typeof WORDS] : WORDS.en;
}
