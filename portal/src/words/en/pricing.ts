// English: the price list rules' facts, comparisons and traces, delivery methods and why one is unavailable.
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
const or = (values: string[]) => joined(values, "or");

export const pricing: Pricing = {
  facts: {
    "pup.branch": {
      label: "Pickup point chain",
      unset: "No pickup point is chosen",
      set: "A pickup point is chosen",
    },
    "customer.country": { label: "Customer's country" },
    "customer.postalcode": { label: "Customer's postal code" },
    "customer.address": {
      label: "Customer's street address",
      unset: "The customer's street address is not known",
      set: "The customer's street address is known",
    },
    "order.shipping_type": {
      label: "Delivery method",
      unset: "No delivery method is chosen",
      set: "A delivery method is chosen",
    },
    "order.tags": {
      label: "Order tags",
      has: (tag) => `The order has the tag ${tag}`,
      values: (tags) => `its tags are ${tags}`,
      none: "it has no tags",
    },
    "order.total_eur": { label: "Order value", hint: "in euros" },
    "order.letter_possible": {
      label: "Fits in a letter",
      yes: "The order fits in a letter",
      no: "The order does not fit in a letter",
    },
    "order.total_weight": { label: "Order weight", hint: "in grams (1 kg = 1000 g)" },
    "order.total_volume": { label: "Order volume", hint: "in litres" },
    "order.item_count": { label: "Number of items" },
    "order.item_article_count": { label: "Number of different products" },
  },
  operators: {
    "==": "is",
    "!=": "is not",
    "<": "is under",
    "<=": "is at most",
    ">": "is over",
    ">=": "is at least",
    in: "is one of",
    not_in: "is none of",
    contains: "contains",
  },
  hasTag: "has the tag",
  condition: {
    ops: {
      "==": (s, v) => `${s} is ${v}`,
      "!=": (s, v) => `${s} is not ${v}`,
      "<": (s, v) => `${s} is under ${v}`,
      "<=": (s, v) => `${s} is at most ${v}`,
      ">": (s, v) => `${s} is over ${v}`,
      ">=": (s, v) => `${s} is at least ${v}`,
      contains: (s, v) => `${s} contains ${v}`,
    },
    in: (s, values) => `${s} is ${or(values)}`,
    not_in: (s, values) => `${s} is not ${or(values)}`,
    quote: (text) => `“${text}”`,
    no: (condition, actual) => (actual === undefined ? `${condition}: no` : `${condition}: no (it is ${actual})`),
    noBecause: (condition, reason) => `${condition}: no (${reason})`,
    yes: (condition) => `${condition}: yes`,
    all: (conditions) => joined(conditions, "and"),
    always: "Always",
  },
  or,
  trace: {
    named: (rule, description) => `${rule} “${description}”`,
    base: (price, rule) => `Base price ${price}: ${rule} applied`,
    fallback: (price) => `Base price ${price}: no pricing rule applied, so the default price is used`,
    notApplied: (rule) => `${rule} did not apply`,
    applied: (rule, price) => `${rule} applied: the price is now ${price}`,
    omitted: (n) => (n === 1 ? "1 more check is not shown" : `${n} more checks are not shown`),
  },
  adjust: { add: "Add or take off", multiply: "Multiply", set: "Set the price" },
  adjustment: {
    add: (money) => `Add ${money}`,
    subtract: (money) => `Take off ${money}`,
    multiply: (factor) => `Multiply by ${factor}`,
    off: (percent) => `${percent} off`,
    more: (percent) => `${percent} more`,
    set: (money) => `Set the price to ${money}`,
  },
  methods: { pickup: "Pickup point", home: "Home delivery", letter: "Letter" },
  pickupMaxDistance: "Greatest distance to a pickup point (km)",
  unavailable: {
    item_does_not_allow:
      "The order cannot go as a letter: its weight is unknown or over your letter limit, or an item is too large or may not go as a letter.",
    merchant_disabled: "Switched off in your shipping settings, or it has no price list.",
    weight_exceeded: "The order is heavier than this delivery method's weight limit in your shipping settings.",
    country_not_served: "You do not deliver to the customer's country (see the countries in your shipping settings).",
    no_pickup_points: "No pickup points were found near the customer.",
    unknown_postal_code: "The customer's postal code is not known: check the postal code.",
    pickup_points_too_far:
      "No pickup point is within the maximum distance of your shipping settings from the customer.",
  },
};
