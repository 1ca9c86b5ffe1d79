// Every word the picker shows, in the three languages of its shops; English when the page's is none of them.
// What a shopper reads is plain words: never a code, a field name or a server message.
export const TEXTS = {
  en: {
    legend: "Delivery method",
    home: "Home delivery",
    letter: "Letter to your mailbox",
    pickup: "Pickup point",
    points: "Choose a pickup point",
    postalcode: "Postal code",
    search: "Search",
    loading: "Loading delivery options…",
    found: (n: number, code: string) => `${n} pickup points near ${code}.`,
    methods: (n: number, code: string) => `${n} delivery options for ${code}.`,
    none: "No delivery is available to this postal code.",
    tooFar: "No pickup point is near this postal code.",
    badCode: "Check the postal code.",
    failed: "Delivery options could not be loaded.",
    refused: "Delivery options cannot be shown on this page. Please tell the shop.",
    retry: "Try again",
    from: (price: string) => `from ${price}`,
    free: "Free",
    chosen: (what: string, price: string) => `Chosen: ${what}, ${price}.`,
    hours: "Opening hours",
    distance: "Distance",
  },
  fi: {
    legend: "Toimitustapa",
    home: "Kotiinkuljetus",
    letter: "Kirjeenä postilaatikkoon",
    pickup: "Noutopiste",
    points: "Valitse noutopiste",
    postalcode: "Postinumero",
    search: "Hae",
    loading: "Ladataan toimitustapoja…",
    found: (n: number, code: string) => `${n} noutopistettä lähellä postinumeroa ${code}.`,
    methods: (n: number, code: string) => `${n} toimitustapaa postinumeroon ${code}.`,
    none: "Tähän postinumeroon ei ole toimitustapoja.",
    tooFar: "Tämän postinumeron lähellä ei ole noutopistettä.",
    badCode: "Tarkista postinumero.",
    failed: "Toimitustapoja ei voitu ladata.",
    refused: "Toimitustapoja ei voida näyttää tällä sivulla. Kerrothan kaupalle.",
    retry: "Yritä uudelleen",
    from: (price: string) => `alkaen ${price}`,
    free: "Maksuton",
    chosen: (what: string, price: string) => `Valittu: ${what}, ${price}.`,
    hours: "Aukioloajat",
    distance: "Etäisyys",
  },
  sv: {
    legend: "Leveranssätt",
    home: "Hemleverans",
    letter: "Brev till brevlådan",
    pickup: "Utlämningsställe",
    points: "Välj utlämningsställe",
    postalcode: "Postnummer",
    search: "Sök",
    loading: "Leveranssätten laddas…",
    found: (n: number, code: string) => `${n} utlämningsställen nära ${code}.`,
    methods: (n: number, code: string) => `${n} leveranssätt till ${code}.`,
    none: "Ingen leverans är möjlig till detta postnummer.",
    tooFar: "Det finns inget utlämningsställe nära detta postnummer.",
    badCode: "Kontrollera postnumret.",
    failed: "Leveranssätten kunde inte laddas.",
    refused: "Leveranssätten kan inte visas på den här sidan. Meddela gärna butiken.",
    retry: "Försök igen",
    from: (price: string) => `från ${price}`,
    free: "Gratis",
    chosen: (what: string, price: string) => `Valt: ${what}, ${price}.`,
    hours: "Öppettider",
    distance: "Avstånd",
  },
} as const;

export type Language = keyof typeof TEXTS;
export type Texts = (typeof TEXTS)[Language];

/** The language of `tag` (`fi-FI`, `sv`, `en-GB`), English when it is none of the three. */
export function languageOf(tag: string | null | undefined): Language {
  const base = (tag ?? "").toLowerCase().split(/[-_]/)[0] as Language;
  return base in TEXTS ? base : "en";
}
