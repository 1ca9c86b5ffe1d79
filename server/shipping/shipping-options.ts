// GET /shipping_options and GET /orders/{id}/shipping_options: facts, then each method's availability and fee,
// with the nearest pickup points priced one by one.
import type {
  CountryCode,
  OrderShippingOptionsResult,
  ShippingOptionsByMethod,
  ShippingOptionsPreview,
  ShippingOptionsResult,
} from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor } from "../db/transaction.ts";
import { orderForShipping } from "../orders/orders.ts";
import {
  freshNearestPickupPoints,
  nearestPickupPoints,
  pickupPointBranch,
  withinReach,
} from "../pickup-points/lookup.ts";
import type { Db } from "../db/database.ts";
import type { TtlCache } from "../shared/ttl-cache.ts";
import type { Nearest } from "../pickup-points/lookup.ts";
import { freshShippingConfig, shippingConfig, type ShippingConfig } from "./merchant-config.ts";
import { TraceBook, type ShippingExplanation } from "./explanation.ts";
import { genericFacts, orderFacts, type ShippingFacts } from "./facts.ts";
import {
  buildShippingOptions,
  unavailableReason,
  type MethodPriceList,
  type MethodSettings,
  type PickupPoint,
  type ShippingOptionsInput,
} from "./methods.ts";
import { shippingOptionsText } from "./answer-text.ts";
import { withText } from "../shared/answer-texts.ts";
import { validatePriceList } from "./rules-validation.ts";
import { DEFAULT_SETTINGS } from "./settings.ts";
import { deliverySettingsProblems, withEstimates, type DeliveryTimesByMethod } from "./delivery-dates.ts";
import type { ErrorDetail } from "../shared/errors.ts";
import { fieldOf, isNumber, itemsOf } from "../shared/loose.ts";
import { postalCodeProblem, queryPostalCodeProblems } from "../shared/postal-codes.ts";
import { hasAtMostTwoDecimals } from "../shared/money.ts";

/** What a shipping options answer may reuse (services.ts makes them and invalidates them across instances). */
export interface Caches {
  /** Nearest pickup points by country, postal code and limit: shared by every merchant. */
  directory: TtlCache<Nearest>;
  /** Each merchant's shipping settings and price lists, by merchant id. */
  shippingConfig: TtlCache<ShippingConfig>;
}

export interface GenericQuery {
  postalcode: string;
  country: CountryCode;
  /** Grams; absent when unknown. */
  weight?: number;
  /** What a checkout page knows of the cart: EUR, items, tags; absent: 0, 0, none. */
  cart_value?: number;
  item_count?: number;
  tags?: readonly string[];
  /** Add the rule trace to every option. */
  explain: boolean;
  /** Keep each pickup point's `distance_m` (a checkout page's answer). */
  distances?: boolean;
  /** How many pickup points, in place of the settings' `pickup_points_limit` (a Shopify token's own count). */
  pickup_points_limit?: number;
}

/** What options are computed from: saved settings and lists, or a preview's drafts in their place. */
interface OptionsConfig {
  settings: MethodSettings & {
    pickup_points_limit: number;
    time_zone?: string | null;
    delivery_times?: DeliveryTimesByMethod;
  };
  priceLists: readonly MethodPriceList[];
}

/** `options` of an answer (with delivery estimates of an order placed at `now`), and its `explanation` when asked for. */
async function options(
  db: Executor,
  directory: TtlCache<Nearest>,
  config: OptionsConfig,
  facts: ShippingFacts,
  now: Date,
  explain: boolean,
  distances = false,
): Promise<{ options: ShippingOptionsByMethod; explanation?: ShippingExplanation; directory: readonly PickupPoint[] }> {
  const { settings, priceLists } = config;
  const input: ShippingOptionsInput = {
    settings,
    priceLists,
    facts,
    pickupPoints: [],
    pickupReason: null,
    limit: settings.pickup_points_limit,
    distances,
  };
  // The directory is asked only when the points are all pickup lacks (its reasons are the last checked).
  if (unavailableReason("pickup", input) === "no_pickup_points") {
    const query = {
      postalcode: facts["customer.postalcode"],
      country: facts["customer.country"],
      limit: settings.pickup_points_limit,
    };
    // From the cache at once when it has the answer (no promise, no turn of the event loop).
    const nearest = freshNearestPickupPoints(directory, query) ?? (await nearestPickupPoints(db, directory, query));
    const { points, reason } = withinReach(nearest, settings.pickup.max_distance_km);
    input.pickupPoints = points;
    input.pickupReason = reason;
  }
  const estimates = {
    time_zone: settings.time_zone ?? null,
    delivery_times: settings.delivery_times ?? {},
    country: facts["customer.country"],
    now,
  };
  if (!explain)
    return { options: withEstimates(buildShippingOptions(input), estimates), directory: input.pickupPoints };
  const book = new TraceBook();
  const built = buildShippingOptions(input, book);
  return { options: withEstimates(built, estimates), explanation: book.explanation(), directory: input.pickupPoints };
}

/**
 * The value rules of GET /shipping_options (shippingValueRules in http.ts): a postal code the country can have, and
 * `cart_value` in cents like every amount. The query may not have passed its schema: only strings and numbers count.
 */
export function shippingQueryProblems(query: Record<string, unknown>, defaultCountry: string): ErrorDetail[] {
  const problems = queryPostalCodeProblems(query, defaultCountry);
  const { cart_value } = query;
  if (isNumber(cart_value) && !hasAtMostTwoDecimals(cart_value))
    problems.push({ path: "/query/cart_value", message: "at most two decimals", code: "multipleOf" });
  return problems;
}

/**
 * The value rules of a preview (shippingValueRules in http.ts): each draft as a save checks it, at most one draft
 * per method, a postal code the country can have. The body may not have passed its schema: see shared/loose.ts.
 */
export function previewProblems(body: unknown, defaultCountry: string): ErrorDetail[] {
  const drafts = itemsOf(fieldOf(body, "price_lists"));
  const problems: ErrorDetail[] = [
    ...deliverySettingsProblems(fieldOf(body, "settings"), "/body/settings"),
    ...drafts.flatMap((list, i) => validatePriceList(list, `/body/price_lists/${i}`)),
  ];
  const postalcode = fieldOf(body, "postalcode");
  const country = fieldOf(body, "country") ?? defaultCountry;
  const postal =
    typeof postalcode === "string" && typeof country === "string" ? postalCodeProblem(country, postalcode) : null;
  if (postal) problems.unshift({ path: "/body/postalcode", message: postal, code: "pattern" });
  const methods = drafts.map((list) => fieldOf(list, "method"));
  methods.forEach((method, i) => {
    if (typeof method === "string" && methods.indexOf(method) !== i) {
      problems.push({ path: `/body/price_lists/${i}/method`, message: `a second draft for ${method}`, code: "unique" });
    }
  });
  return problems;
}

export async function genericShippingOptions(
  db: Db,
  caches: Caches,
  merchant: Principal,
  query: GenericQuery,
  now: Date,
): Promise<ShippingOptionsResult> {
  // Its value rules (shippingQueryProblems) ran with the schema check.
  const saved =
    freshShippingConfig(caches.shippingConfig, merchant.id) ??
    (await shippingConfig(db, caches.shippingConfig, merchant.id));
  const limit = query.pickup_points_limit;
  const config = limit ? { ...saved, settings: { ...saved.settings, pickup_points_limit: limit } } : saved;
  const facts = genericFacts(query, config.settings.letter);
  const built = await options(db, caches.directory, config, facts, now, query.explain, query.distances);
  const body: ShippingOptionsResult = built.explanation
    ? { facts, options: built.options, explanation: built.explanation }
    : { facts, options: built.options };
  // Sent as the text of its points' fields made once a directory point (answer-text.ts), unless it explains or
  // shows distances.
  if (query.explain || query.distances) return body;
  const { directory } = built;
  return withText(body, (b) => shippingOptionsText(b, directory));
}

/**
 * The answer of `GET /shipping_options` for drafts of the merchant's settings and price lists (a draft list
 * replaces the saved one of its method), always explained. Drafts are checked as a save checks them.
 */
export async function previewShippingOptions(
  db: Db,
  caches: Caches,
  merchant: Principal,
  input: ShippingOptionsPreview & { country: CountryCode },
  now: Date,
): Promise<ShippingOptionsResult> {
  const { country } = input;
  // Its value rules (previewProblems) ran with the schema check.
  const drafts = input.price_lists ?? [];
  const saved = await shippingConfig(db, caches.shippingConfig, merchant.id);
  const settings = input.settings
    ? {
        ...input.settings,
        pickup: {
          ...input.settings.pickup,
          max_distance_km: input.settings.pickup.max_distance_km ?? DEFAULT_SETTINGS.pickup.max_distance_km,
        },
        pickup_points_limit: input.settings.pickup_points_limit ?? DEFAULT_SETTINGS.pickup_points_limit,
      }
    : saved.settings;
  const priceLists: MethodPriceList[] = [
    ...saved.priceLists.filter((list) => !drafts.some((d) => d.method === list.method)),
    ...drafts.map((d) => ({ ...d, id: null })),
  ];
  const facts: ShippingFacts = {
    ...genericFacts({ postalcode: input.postalcode, country, weight: input.weight }, settings.letter),
    "order.total_eur": input.cart_value ?? 0,
    "order.tags": [...(input.tags ?? [])],
  };
  const { directory: _, ...answer } = await options(db, caches.directory, { settings, priceLists }, facts, now, true);
  return { facts, ...answer };
}

export async function orderShippingOptions(
  db: Db,
  caches: Caches,
  merchant: Principal,
  orderId: string,
  explain: boolean,
  now: Date,
): Promise<OrderShippingOptionsResult> {
  const [order, config] = await Promise.all([
    orderForShipping(db, merchant, orderId),
    shippingConfig(db, caches.shippingConfig, merchant.id),
  ]);
  const destination = order.destination;
  const branch =
    destination && destination !== "home" && destination !== "letter"
      ? ((await pickupPointBranch(db, destination)) ?? null)
      : null;
  const facts = orderFacts(order, config.settings.letter, branch);
  const { directory: _, ...answer } = await options(db, caches.directory, config, facts, now, explain);
  return { order_id: order.id, facts, ...answer };
}
