// Svenska: prislistornas uppgifter, jämförelser och hur ett pris räknades fram, leveranssätt och varför ett
// inte är tillgängligt.
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
const or = (values: string[]) => joined(values, "eller");

export const pricing: Pricing = {
  facts: {
    "pup.branch": {
      label: "Utlämningsställets kedja",
      unset: "Inget utlämningsställe är valt",
      set: "Ett utlämningsställe är valt",
    },
    "customer.country": { label: "Kundens land" },
    "customer.postalcode": { label: "Kundens postnummer" },
    "customer.address": {
      label: "Kundens gatuadress",
      unset: "Kundens gatuadress är inte känd",
      set: "Kundens gatuadress är känd",
    },
    "order.shipping_type": {
      label: "Leveranssätt",
      unset: "Inget leveranssätt är valt",
      set: "Ett leveranssätt är valt",
    },
    "order.tags": {
      label: "Orderns taggar",
      has: (tag) => `Ordern har taggen ${tag}`,
      values: (tags) => `taggarna är ${tags}`,
      none: "ordern har inga taggar",
    },
    "order.total_eur": { label: "Orderns värde", hint: "i euro" },
    "order.letter_possible": {
      label: "Ryms i ett brev",
      yes: "Ordern ryms i ett brev",
      no: "Ordern ryms inte i ett brev",
    },
    "order.total_weight": { label: "Orderns vikt", hint: "i gram (1 kg = 1000 g)" },
    "order.total_volume": { label: "Orderns volym", hint: "i liter" },
    "order.item_count": { label: "Antal varor" },
    "order.item_article_count": { label: "Antal olika produkter" },
  },
  operators: {
    "==": "är",
    "!=": "är inte",
    "<": "är under",
    "<=": "är högst",
    ">": "är över",
    ">=": "är minst",
    in: "är någon av",
    not_in: "är ingen av",
    contains: "innehåller",
  },
  hasTag: "har taggen",
  condition: {
    ops: {
      "==": (s, v) => `${s} är ${v}`,
      "!=": (s, v) => `${s} är inte ${v}`,
      "<": (s, v) => `${s} är under ${v}`,
      "<=": (s, v) => `${s} är högst ${v}`,
      ">": (s, v) => `${s} är över ${v}`,
      ">=": (s, v) => `${s} är minst ${v}`,
      contains: (s, v) => `${s} innehåller ${v}`,
    },
    in: (s, values) => `${s} är ${or(values)}`,
    not_in: (s, values) => `${s} är inte ${or(values)}`,
    quote: (text) => `”${text}”`,
    no: (condition, actual) => (actual === undefined ? `${condition}: nej` : `${condition}: nej (värdet är ${actual})`),
    noBecause: (condition, reason) => `${condition}: nej (${reason})`,
    yes: (condition) => `${condition}: ja`,
    all: (conditions) => joined(conditions, "och"),
    always: "Alltid",
  },
  or,
  trace: {
    named: (rule, description) => `${rule} ”${description}”`,
    base: (price, rule) => `Grundpris ${price}: ${rule} gällde`,
    fallback: (price) => `Grundpris ${price}: ingen prisregel gällde, så standardpriset används`,
    notApplied: (rule) => `${rule} gällde inte`,
    applied: (rule, price) => `${rule} gällde: priset är nu ${price}`,
    omitted: (n) => (n === 1 ? "1 kontroll till visas inte" : `${n} kontroller till visas inte`),
  },
  adjust: { add: "Lägg till eller dra av", multiply: "Multiplicera", set: "Sätt priset" },
  adjustment: {
    add: (money) => `Lägg till ${money}`,
    subtract: (money) => `Dra av ${money}`,
    multiply: (factor) => `Multiplicera med ${factor}`,
    off: (percent) => `${percent} rabatt`,
    more: (percent) => `${percent} påslag`,
    set: (money) => `Sätt priset till ${money}`,
  },
  methods: { pickup: "Utlämningsställe", home: "Hemleverans", letter: "Brev" },
  pickupMaxDistance: "Största avstånd till ett utlämningsställe (km)",
  unavailable: {
    item_does_not_allow:
      "Ordern kan inte skickas som brev: vikten är okänd eller över din viktgräns för brev, eller så är en vara för stor eller får inte skickas som brev.",
    merchant_disabled: "Avstängt i dina leveransinställningar, eller så saknas prislista.",
    weight_exceeded: "Ordern är tyngre än viktgränsen för det här leveranssättet i dina leveransinställningar.",
    country_not_served: "Du levererar inte till kundens land (se länderna i dina leveransinställningar).",
    no_pickup_points: "Inga utlämningsställen hittades nära kunden.",
    unknown_postal_code: "Kundens postnummer är okänt: kontrollera postnumret.",
    pickup_points_too_far:
      "Inget utlämningsställe ligger inom det största avståndet i dina leveransinställningar från kunden.",
  },
};
