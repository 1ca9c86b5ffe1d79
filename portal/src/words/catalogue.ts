// The shape of one language's words. Every record is keyed by a code the spec (or codes.ts, fields.ts) lists,
// so a language missing a word is a type error. Sentences that hold a field's name are functions of `Say`.
import type { Adjust, AnswerCode, DetailCode, StatusChanger } from "./codes.ts";
import type { FieldName, GroupName, ItemName, Shape } from "./fields.ts";
import type { Limits } from "./limits.ts";
import type { ShopifyWords } from "./shopify-words.ts";
import type { StationWords } from "./station-words.ts";
import type { checkout } from "./en/checkout.ts";
import type { common } from "./en/common.ts";
import type { pricingPage } from "./en/pricing-page.ts";
import type { shipments } from "./en/shipments.ts";
import type { users } from "./en/users.ts";
import type { webhooks } from "./en/webhooks.ts";
import type {
  InboundShipmentAction,
  InboundShipmentStatus,
  PortalUserRole,
  ProblemType,
  RuleOperator,
  ShippingFactName,
  ShippingMethodType,
  ShippingUnavailableReason,
  WebhookDeliveryStatus,
  WebhookEventType,
  WebhookFailureClass,
} from "../../../generated/api.ts";

/** The arrivals table of a shipment's page: who recorded each arrival and when. */
export interface ArrivalWords {
  /** The heading and the table's name. */
  title: string;
  /** Under the heading: that the table updates itself while the page is open. */
  live: string;
  none: string;
  when: string;
  product: string;
  items: string;
  who: string;
  /** A negative change: "-2 (correction)". */
  correction: (change: string) => string;
  /** Recorded with the warehouse's shared credentials (a warehouse system), by its operator id. */
  system: (id: string) => string;
}

/** How one language names the items of a list. */
export interface ItemWords {
  /** Before a position, starting a sentence: "Product" (Product 2), "Tuote", "Produkt". */
  title: string;
  /** One item after "at least one" / "vähintään yksi" / "minst": "product", "tuote", "en produkt". */
  one: string;
  /** Several after a number: "products", "tuotetta" (partitive), "produkter". */
  many: string;
}

/** What a sentence about one field is made of. */
export interface Say {
  /** The field's name in running text: en "the name" (with its article), fi "nimi" (nominative), sv
   * "namnet" (definite); or the item, "tag 3" / "tunniste 3" / "tagg 3". */
  l: string;
  /** `l` starting a sentence. */
  L: string;
  /** The spec's limit that failed, formatted for the language with its unit ("100", "5 000 g"). */
  n?: string;
  /** The same limit as a number. */
  count?: number;
  /** When the field is a list, or an item of one: its items' words. */
  item?: ItemWords;
  /** The JSON type the spec wants. */
  type?: Limits["type"];
  /** The field, for words that differ by field ("duplicate" of a product code or of a header). */
  field?: FieldName;
}
export type Sentence = (s: Say) => string;

/** How one language says a criterion, given the fact's label and the value(s) in words. */
export interface ConditionWords {
  ops: Record<Exclude<RuleOperator, "in" | "not_in">, (subject: string, value: string) => string>;
  in: (subject: string, values: string[]) => string;
  not_in: (subject: string, values: string[]) => string;
  /** A quoted text value: “vip”, ”vip”. */
  quote: (text: string) => string;
  /** A check's outcome: "Order weight is over 10 kg: no (it is 1 kg)". `actual` absent: said by the condition. */
  no: (condition: string, actual?: string) => string;
  /** A check's outcome when the fact had no value ("no pickup point is chosen"): said as a sentence. */
  noBecause: (condition: string, reason: string) => string;
  yes: (condition: string) => string;
  /** Several conditions that must all hold (all but the first start in lower case). */
  all: (conditions: string[]) => string;
  /** A rule without conditions. */
  always: string;
}

export interface FactWords {
  /** What the fact is, as a subject: "Order weight". */
  label: string;
  /** For the rule editor's value field: "in grams". */
  hint?: string;
  /** Nullable facts: the sentence for "has no value" and for "has one". */
  unset?: string;
  set?: string;
  /** order.letter_possible: the sentences for true and false. */
  yes?: string;
  no?: string;
  /** order.tags: "The order has the tag “vip”"; its values in a trace; no values. */
  has?: (tag: string) => string;
  values?: (tags: string) => string;
  none?: string;
}

/** A price list's two kinds of step, named by their item's title ("Pricing rule 2", "Price change 1") wherever they
 * are named: the editor, its conditions, the explanation of a price (rules.ts stepName). */
export interface TraceWords {
  /** A rule's own description after its name. */
  named: (rule: string, description: string) => string;
  base: (price: string, rule: string) => string;
  fallback: (price: string) => string;
  notApplied: (rule: string) => string;
  applied: (rule: string, price: string) => string;
  omitted: (n: number) => string;
}

export interface Catalogue {
  /** A sentence for each answer: what happened and what to do. */
  answers: Record<AnswerCode, string>;
  /** Sign-in's own answers (its unauthorized is a wrong password, not an ended session). */
  /** The sign-in page: why a sign-in failed, and why this browser was signed out when it says so. */
  signIn: { unauthorized: string; rate_limited: string; removedYourself: string };
  /** The language switch's label. */
  language: string;
  /** Only the first details came: how many there were. */
  cut: (total: number) => string;

  fields: Record<FieldName, string>;
  /** What a field is called when the path names nothing words know. */
  unknownField: string;
  items: Record<ItemName, ItemWords>;
  groups: Record<GroupName, string>;
  /** A prefix's parts joined, and the prefix put before a sentence: "Product 2, condition 1: ...". */
  where: (parts: string[], sentence: string) => string;
  details: Record<DetailCode, Sentence>;
  shapes: Record<Shape, Sentence>;
  /** The detail of an invalid_state answer: the shipment's status now. */
  statusNow: (status: string) => string;

  facts: Record<ShippingFactName, FactWords>;
  /** Operators as the rule editor offers them. */
  operators: Record<RuleOperator, string>;
  /** order.tags' one operator, `contains`, as the editor offers it. */
  hasTag: string;
  condition: ConditionWords;
  /** A list of values joined with "or": "Posti, Matkahuolto or DB Schenker". */
  or: (values: string[]) => string;
  trace: TraceWords;
  adjust: Record<Adjust, string>;
  adjustment: {
    add: (money: string) => string;
    subtract: (money: string) => string;
    multiply: (factor: string) => string;
    /** After a factor below or above 1: "10 % off", "20 % more". */
    off: (percent: string) => string;
    more: (percent: string) => string;
    set: (money: string) => string;
  };

  methods: Record<ShippingMethodType, string>;
  /** The shipping settings' pickup.max_distance_km field, in kilometres. */
  pickupMaxDistance: string;
  unavailable: Record<ShippingUnavailableReason, string>;
  statuses: Record<InboundShipmentStatus, string>;
  actions: Record<InboundShipmentAction, string>;
  /** Who changed a shipment's status, after the status in its timeline: "Confirmed by your shop". */
  changedBy: Record<StatusChanger, string>;
  problemTypes: Record<ProblemType, string>;
  deliveryStatuses: Record<WebhookDeliveryStatus, string>;
  failureClasses: Record<WebhookFailureClass, string>;
  eventTypes: Record<WebhookEventType, string>;
  roles: Record<PortalUserRole, string>;
  yesNo: { yes: string; no: string };
  /** Shown for a date or value that is absent. */
  none: string;

  /** The receiving label's links on a shipment's page (the label itself is the API's page, in the same language). */
  label: { title: string; about: string; a6: string; a4: string };

  /** A shipment's arrivals on its page, updated while the page is open. */
  arrivals: ArrivalWords;

  /** The receiving station's words (portal/src/station), for warehouse staff. */
  station: StationWords;

  /** The Checkout page's Shopify part: the callback addresses and the steps that connect a Shopify shop. */
  shopify: ShopifyWords;
  /** The pages' own words, area by area. Each area's shape is its English words' (en/<area>.ts): fi and sv are
   * checked against it, and test/unit/words-parity.test.ts compares all three. */
  common: typeof common;
  checkout: typeof checkout;
  shipments: typeof shipments;
  pricingPage: typeof pricingPage;
  webhooks: typeof webhooks;
  users: typeof users;
}
