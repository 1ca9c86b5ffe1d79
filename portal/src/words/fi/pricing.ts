// Suomi: hinnaston sääntöjen tiedot, vertailut ja hinnan muodostuminen, toimitustavat ja miksi jokin ei ole
// käytettävissä.
import type { Catalogue } from "../catalogue.ts";

type Pricing = Pick<
  Catalogue,
  | "facts"
  | "operators"
  | "hasTag"
  | "condition"
  | "or"
  | "trace"
  | "adjust"
  | "adjustment"
  | "methods"
  | "pickupMaxDistance"
  | "unavailable"
>;

const joined = (values: string[], last: string) =>
  values.length <= 1 ? (values[0] ?? "") : `${values.slice(0, -1).join(", ")} ${last} ${values[values.length - 1]}`;

export const pricing: Pricing = {
  facts: {
    "pup.branch": {
      label: "Noutopisteen ketju",
      unset: "Noutopistettä ei ole valittu",
      set: "Noutopiste on valittu",
    },
    "customer.country": { label: "Asiakkaan maa" },
    "customer.postalcode": { label: "Asiakkaan postinumero" },
    "customer.address": {
      label: "Asiakkaan katuosoite",
      unset: "Asiakkaan katuosoite ei ole tiedossa",
      set: "Asiakkaan katuosoite on tiedossa",
    },
    "order.shipping_type": {
      label: "Toimitustapa",
      unset: "Toimitustapaa ei ole valittu",
      set: "Toimitustapa on valittu",
    },
    "order.tags": {
      label: "Tilauksen tunnisteet",
      has: (tag) => `Tilauksella on tunniste ${tag}`,
      values: (tags) => `tunnisteet ovat ${tags}`,
      none: "tilauksella ei ole tunnisteita",
    },
    "order.total_eur": { label: "Tilauksen arvo", hint: "euroina" },
    "order.letter_possible": {
      label: "Mahtuu kirjeeseen",
      yes: "Tilaus mahtuu kirjeeseen",
      no: "Tilaus ei mahdu kirjeeseen",
    },
    "order.total_weight": { label: "Tilauksen paino", hint: "grammoina (1 kg = 1000 g)" },
    "order.total_volume": { label: "Tilauksen tilavuus", hint: "litroina" },
    "order.item_count": { label: "Tuotteiden kappalemäärä" },
    "order.item_article_count": { label: "Eri tuotteiden määrä" },
  },
  operators: {
    "==": "on",
    "!=": "ei ole",
    "<": "on alle",
    "<=": "on enintään",
    ">": "on yli",
    ">=": "on vähintään",
    in: "on jokin näistä",
    not_in: "ei ole mikään näistä",
    contains: "sisältää",
  },
  hasTag: "sisältää tunnisteen",
  condition: {
    ops: {
      "==": (s, v) => `${s} on ${v}`,
      "!=": (s, v) => `${s} ei ole ${v}`,
      "<": (s, v) => `${s} on alle ${v}`,
      "<=": (s, v) => `${s} on enintään ${v}`,
      ">": (s, v) => `${s} on yli ${v}`,
      ">=": (s, v) => `${s} on vähintään ${v}`,
      contains: (s, v) => `${s} sisältää tekstin ${v}`,
    },
    in: (s, values) => (values.length === 1 ? `${s} on ${values[0]}` : `${s} on jokin näistä: ${values.join(", ")}`),
    not_in: (s, values) =>
      values.length === 1 ? `${s} ei ole ${values[0]}` : `${s} ei ole mikään näistä: ${values.join(", ")}`,
    quote: (text) => `”${text}”`,
    no: (condition, actual) => (actual === undefined ? `${condition}: ei` : `${condition}: ei (se on ${actual})`),
    noBecause: (condition, reason) => `${condition}: ei (${reason})`,
    yes: (condition) => `${condition}: kyllä`,
    all: (conditions) => joined(conditions, "ja"),
    always: "Aina",
  },
  or: (values) => joined(values, "tai"),
  trace: {
    named: (rule, description) => `${rule} ”${description}”`,
    base: (price, rule) => `Perushinta ${price}: ${rule} täsmäsi`,
    fallback: (price) => `Perushinta ${price}: mikään hinnoittelusääntö ei täsmännyt, joten käytetään oletushintaa`,
    notApplied: (rule) => `${rule} ei täsmännyt`,
    applied: (rule, price) => `${rule} täsmäsi: hinta on nyt ${price}`,
    omitted: (n) =>
      n === 1 ? "1 muu tarkistus jätettiin näyttämättä" : `${n} muuta tarkistusta jätettiin näyttämättä`,
  },
  adjust: { add: "Lisää tai vähennä", multiply: "Kerro", set: "Aseta hinta" },
  adjustment: {
    add: (money) => `Lisää ${money}`,
    subtract: (money) => `Vähennä ${money}`,
    multiply: (factor) => `Kerro luvulla ${factor}`,
    off: (percent) => `${percent} alennus`,
    more: (percent) => `${percent} korotus`,
    set: (money) => `Aseta hinnaksi ${money}`,
  },
  methods: { pickup: "Noutopiste", home: "Kotiinkuljetus", letter: "Kirje" },
  pickupMaxDistance: "Noutopisteen suurin etäisyys (km)",
  unavailable: {
    item_does_not_allow:
      "Tilausta ei voi lähettää kirjeenä: sen paino ei ole tiedossa tai ylittää kirjeen painorajasi, tai jokin tuote on liian suuri tai ei saa lähteä kirjeenä.",
    merchant_disabled: "Poistettu käytöstä toimitusasetuksissasi, tai sillä ei ole hinnastoa.",
    weight_exceeded: "Tilaus on painavampi kuin tämän toimitustavan painoraja toimitusasetuksissasi.",
    country_not_served: "Et toimita asiakkaan maahan (katso maat toimitusasetuksistasi).",
    no_pickup_points: "Asiakkaan läheltä ei löytynyt noutopisteitä.",
    unknown_postal_code: "Asiakkaan postinumeroa ei tunneta: tarkista postinumero.",
    pickup_points_too_far: "Yksikään noutopiste ei ole toimitusasetustesi enimmäisetäisyyden sisällä asiakkaasta.",
  },
};
