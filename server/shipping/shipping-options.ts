// GET /shipping_options and GET /orders/{id}/shipping_options: facts, then each method's availability and fee,
// with the nearest pickup points priced one by one.
import type { CountryCode, OrderShippingOptionsResult, ShippingOptionsByMethod, ShippingOptionsResult } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor } from "../db/transaction.ts";
import { orderForShipping } from "../orders/orders.ts";
import { checkPostalCode, nearestPickupPoints, pickupPointBranch } from "../pickup-points/lookup.ts";
import type { Db } from "../db/database.ts";
import type { TtlCache } from "../shared/ttl-cache.ts";
import type { Nearest } from "../pickup-points/lookup.ts";
import { shippingConfig, type ShippingConfig } from "./merchant-config.ts";
import { genericFacts, orderFacts, type ShippingFacts } from "./facts.ts";
import { buildShippingOptions, unavailableReason } from "./methods.ts";


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
}

async function options(db: Executor, directory: TtlCache<Nearest>, config: ShippingConfig, facts: ShippingFacts): Promise<ShippingOptionsByMethod> {
  const { settings, priceLists } = config;
  const input = { settings, priceLists, facts, pickupPoints: [], limit: settings.pickup_points_limit };
  // The directory is asked only when the points are all pickup lacks (no_pickup_points is the last reason checked).
  const pickupPoints = unavailableReason("pickup", input) !== "no_pickup_points" ? [] : (await nearestPickupPoints(db, directory, {
    postalcode: facts["customer.postalcode"], country: facts["customer.country"], limit: settings.pickup_points_limit,
  })).points;
  return buildShippingOptions({ ...input, pickupPoints });
}

export async function genericShippingOptions(db: Db, caches: Caches, merchant: Principal, query: GenericQuery): Promise<ShippingOptionsResult> {
  checkPostalCode(query.country, query.postalcode);
  const config = await shippingConfig(db, caches.shippingConfig, merchant.id);
  const facts = genericFacts(query, config.settings.letter);
  return { facts, options: await options(db, caches.directory, config, facts) };
}

export async function orderShippingOptions(db: Db, caches: Caches, merchant: Principal, orderId: string): Promise<OrderShippingOptionsResult> {
  const [order, config] = await Promise.all([orderForShipping(db, merchant, orderId), shippingConfig(db, caches.shippingConfig, merchant.id)]);
  const destination = order.destination;
  const branch = destination && destination !== "home" && destination !== "letter" ? ((await pickupPointBranch(db, destination)) ?? null) : null;
  const facts = orderFacts(order, config.settings.letter, branch);
  return { order_id: order.id, facts, options: await options(db, caches.directory, config, facts) };
}
