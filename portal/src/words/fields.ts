// Where an error detail points, in words' terms: a detail's JSON pointer (`/body/products/1/gtin`) read as the
// field it names (`gtin`), the items and groups around it ("product 2"), the kind of value it holds and its
// limits in the spec. Language-neutral: the languages' files give these names their words.
import { RULE_CODES } from "./codes.ts";
import { LIMITS, type Form, type Limits } from "./limits.ts";

export type { Form };

/** Every field the portal's forms (and the API's other requests) send, by property name; `parent.name` where the
 * same name means something else under that parent. The test checks that every property of the spec's requests
 * resolves to one of these. */
export const FIELD_NAMES = [
  "body",
  // Inbound shipments
  "merchants_ref",
  "sender_name",
  "expected_at_wh",
  "products",
  "products_all",
  "merchants_id",
  "name",
  "gtin",
  "qty",
  "purchasePrice",
  "ts",
  "arrivals",
  "change",
  "status",
  "problems",
  "problems.type",
  "description",
  // Shipping settings and price lists
  "letter",
  "home",
  "pickup",
  "enabled",
  "max_weight_g",
  "max_distance_km",
  "countries",
  "pickup_points_limit",
  "time_zone",
  "delivery_times",
  "handling_days",
  "transit_days_min",
  "transit_days_max",
  "cutoff",
  "moving_days",
  "pickup_branches",
  "method",
  "currency",
  "tax",
  "fallback_price",
  "pricing_rules",
  "modification_rules",
  "criteria",
  "fact",
  "op",
  "value",
  "price",
  "adjust",
  "amount",
  // Preview and shipping options
  "postalcode",
  "country",
  "weight",
  "cart_value",
  "item_count",
  "tags",
  "settings",
  "price_lists",
  "explain",
  // Webhook endpoints
  "url",
  "event_types",
  "batching",
  "basic_auth",
  "basic_auth.username",
  "basic_auth.password",
  // Portal users and sign-in
  "email",
  "password",
  "merchant_id",
  "role",
  "current_password",
  "new_password",
  // Publishable keys
  "origins",
  // Orders
  "customer",
  "address",
  "city",
  "phone",
  "unit_price",
  "weight_g",
  "dimensions_mm",
  "length",
  "width",
  "height",
  "letter_allowed",
  "destination",
  "quote",
  // Lists (query parameters)
  "query.status",
  "limit",
  "cursor",
  "updated_since",
  "q",
  "sort",
  "event_type",
  "expected_from",
  "expected_to",
  "code",
  "size",
  "lang",
  // Headers and the ids in the address
  "if-match",
  "if-none-match",
  "idempotency-key",
  "authorization",
  "shipment_id",
  "order_id",
  "pickup_point_id",
  "price_list_id",
  "webhook_id",
  "delivery_id",
  "user_id",
  "warehouse_user_id",
  "key_id",
  // Shopify's carrier service: the callback tokens, and Shopify's rate request (the portal never sends one, but
  // a 400 to Shopify names its fields too)
  "pickup_rates",
  "tag_properties",
  "app_secret",
  "token_id",
  "callback_token",
  "x-shopify-hmac-sha256",
  "x-shopify-shop-domain",
  "rate",
  "rate.origin",
  "rate.destination",
  "rate.items",
  "postal_code",
  "province",
  "address1",
  "address2",
  "sku",
  "quantity",
  "grams",
  "items.price",
  "requires_shipping",
  "properties",
  "locale",
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

/** The items of lists: "Product 2", "Add at least one country", "at most 20 tags". */
export const ITEM_NAMES = [
  "product",
  "problem",
  "country",
  "pricing_rule",
  "modification_rule",
  "condition",
  "value",
  "price_list",
  "tag",
  "event",
  "origin",
  "status",
  "weekday",
  "property",
] as const;
export type ItemName = (typeof ITEM_NAMES)[number];

/** Which list property holds which items (`parent.name` first, as for fields). */
const ITEM_OF: Record<string, ItemName> = {
  products: "product",
  products_all: "product",
  arrivals: "product",
  problems: "problem",
  countries: "country",
  pricing_rules: "pricing_rule",
  modification_rules: "modification_rule",
  criteria: "condition",
  value: "value",
  price_lists: "price_list",
  tags: "tag",
  event_types: "event",
  event_type: "event",
  origins: "origin",
  "query.status": "status",
  moving_days: "weekday",
  tag_properties: "property",
  "rate.items": "product",
};

/** Objects whose fields are named under a heading: "Letter: ...", "Customer: ...". */
export const GROUP_NAMES = [
  "letter",
  "home",
  "pickup",
  "settings",
  "customer",
  "basic_auth",
  "dimensions_mm",
  "delivery_times",
  "rate",
  "origin",
  "destination",
] as const;
export type GroupName = (typeof GROUP_NAMES)[number];

/** Values with a form of their own, said with an example instead of the spec's pattern. */
export const SHAPES = [
  "gtin",
  "email",
  "url",
  "origin",
  "date",
  "datetime",
  "postalcode",
  "phone",
  "trimmed",
  "merchant_id",
  "basic_username",
  "basic_password",
  "pickup_point",
  "quote",
  "cursor",
  "id",
  "request_key",
  "rule_value",
] as const;
export type Shape = (typeof SHAPES)[number];

/** Fields (or `list.#` for a list's items) with a shape; `null` where a `parent.name` has none of its name's. */
const SHAPE_OF: Record<string, Shape | null> = {
  gtin: "gtin",
  email: "email",
  url: "url",
  "origins.#": "origin",
  expected_at_wh: "date",
  ts: "datetime",
  updated_since: "datetime",
  expected_from: "date",
  expected_to: "date",
  postalcode: "postalcode",
  phone: "phone",
  merchants_id: "trimmed",
  "tags.#": "trimmed",
  name: "trimmed",
  merchant_id: "merchant_id",
  "basic_auth.username": "basic_username",
  "basic_auth.password": "basic_password",
  destination: "pickup_point",
  quote: "quote",
  cursor: "cursor",
  shipment_id: "id",
  order_id: "id",
  pickup_point_id: "id",
  price_list_id: "id",
  webhook_id: "id",
  delivery_id: "id",
  user_id: "id",
  warehouse_user_id: "id",
  key_id: "id",
  token_id: "id",
  "rate.destination": null,
  "idempotency-key": "request_key",
  value: "rule_value",
  "value.#": "rule_value",
};
/** The codes a shape's words answer; any other code of the field gets its generic words. */
export const shapeAnswers = (shape: Shape, code: string): boolean =>
  code === "pattern" ||
  code === "format" ||
  (shape === "rule_value" && ["type", "enum", "const"].includes(code)) ||
  // What the portal puts in the address and headers itself: any problem there is the same to the user, but for
  // the service's own checks, which have words of their own (the last admin, removed: `/params/user_id`).
  ((shape === "id" || shape === "cursor" || shape === "request_key") &&
    code !== "required" &&
    !(RULE_CODES as readonly string[]).includes(code));

export type Unit = "gram" | "kilometer" | "millimeter" | "percent";
const UNIT_OF: Partial<Record<FieldName, Unit>> = {
  max_weight_g: "gram",
  max_distance_km: "kilometer",
  weight: "gram",
  weight_g: "gram",
  tax: "percent",
  length: "millimeter",
  width: "millimeter",
  height: "millimeter",
  grams: "gram",
};

export type Root = "body" | "query" | "headers" | "path" | "method" | "status";

export type PrefixPart = { group: GroupName } | { item: ItemName; n: number };

/** A detail's place, read from its path. */
export interface Place {
  root: Root;
  /** The path with list positions as `#`: `/body/products/#/gtin` (the key of the spec's limits). */
  pattern: string;
  /** The lists and groups the field is in, outermost first: product 2, condition 1, "Letter". */
  prefix: PrefixPart[];
  /** The field named last; absent for a list's item ("tag 3") and for what words do not know. */
  field?: FieldName;
  /** The list item the path ends at ("tag 3"), or the items of the list it names ("tags"). */
  item?: { name: ItemName; n?: number };
  shape?: Shape;
  unit?: Unit;
  limits: Limits;
  /** Whether every part of the path has words (the test asks this of every property of the spec). */
  known: boolean;
}

const isIndex = (s: string) => /^\d+$/.test(s);
const has = <K extends string>(list: readonly K[], v: string): v is K => (list as readonly string[]).includes(v);
const pick = <T>(table: Record<string, T>, parent: string, name: string): T | undefined =>
  Object.hasOwn(table, `${parent}.${name}`)
    ? table[`${parent}.${name}`]
    : Object.hasOwn(table, name)
      ? table[name]
      : undefined;
const fieldKey = (parent: string, name: string): FieldName | undefined =>
  has(FIELD_NAMES, `${parent}.${name}`)
    ? (`${parent}.${name}` as FieldName)
    : has(FIELD_NAMES, name)
      ? name
      : undefined;

/** Reads a detail's path: `/body/products/1/gtin`, `/query/limit`, `/headers/if-match`, `/path/user_id`. */
export function placeOf(path: string, form?: Form): Place {
  // Paths over 500 characters come cut, ending with "...".
  const clean = path.endsWith("...") ? path.slice(0, -3) : path;
  const segments = clean
    .split("/")
    .filter((s, i) => i > 0 || s !== "")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  let root: Root = "body";
  const first = segments[0];
  if (first === "params") segments[0] = "path";
  if (segments[0] && has(["body", "query", "headers", "path", "method", "status"] as const, segments[0])) {
    root = segments.shift() as Root;
  }
  const pattern = `/${[root, ...segments.map((s) => (isIndex(s) ? "#" : s))].join("/")}`;
  const place: Place = { root, pattern, prefix: [], limits: limitsOf(pattern, form), known: true };
  if (root === "headers") segments.forEach((s, i) => (segments[i] = s.toLowerCase()));
  if (segments.length === 0) {
    place.field = "body";
    place.known = root === "body" || root === "method" || root === "status";
    return place;
  }
  let parent: string = root;
  for (let i = 0; i < segments.length; i++) {
    const name = segments[i]!;
    const next = segments[i + 1];
    const last = i === segments.length - 1;
    if (isIndex(name)) {
      place.known = false; // an index not after a list
      continue;
    }
    if (next !== undefined && isIndex(next)) {
      const item = pick(ITEM_OF, parent, name);
      if (!item) place.known = false;
      const n = Number(next) + 1;
      if (i + 1 === segments.length - 1) {
        // The path ends at an item of a list of values: "tag 3".
        if (item) place.item = { name: item, n };
        place.field = fieldKey(parent, name);
        place.shape = pick(SHAPE_OF, parent, `${name}.#`) ?? undefined;
        return place;
      }
      if (item) place.prefix.push({ item, n });
      parent = name;
      i++;
      continue;
    }
    if (last) {
      place.field = fieldKey(parent, name);
      if (!place.field) place.known = false;
      const item = pick(ITEM_OF, parent, name);
      if (item && place.limits.type === "array") place.item = { name: item };
      place.shape = pick(SHAPE_OF, parent, name) ?? undefined;
      place.unit = place.field && UNIT_OF[place.field];
      return place;
    }
    if (has(GROUP_NAMES, name)) place.prefix.push({ group: name });
    else place.known = false;
    parent = name;
  }
  return place;
}

let merged: Record<string, Limits> | undefined;
/** The spec's limits of a field: the form's, or (no form) what every form that has the field agrees on. */
export function limitsOf(pattern: string, form?: Form): Limits {
  const own = form && LIMITS[form]?.[pattern];
  if (own) return own;
  if (!merged) {
    merged = {};
    const seen: Record<string, Limits[]> = {};
    for (const table of Object.values(LIMITS)) {
      for (const [p, l] of Object.entries(table ?? {})) (seen[p] ??= []).push(l);
    }
    for (const [p, all] of Object.entries(seen)) {
      const agreed: Record<string, unknown> = {};
      for (const key of new Set(all.flatMap((l) => Object.keys(l)))) {
        const values = new Set(all.filter((l) => key in l).map((l) => (l as Record<string, unknown>)[key]));
        if (values.size === 1) agreed[key] = [...values][0];
      }
      merged[p] = agreed;
    }
  }
  return merged[pattern] ?? {};
}
