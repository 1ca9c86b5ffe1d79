// What the order's own shipping options say of one destination: the answer `GET /orders/{id}/shipping_options`
// gives for the order as it will be stored, for its method (and pickup point, within the merchant's reach). An order placed with a quote is
// accepted only when this gives the quote's price (quotes.ts).
import type { Price, ShippingUnavailableReason } from "../../generated/api.ts";
import type { Executor } from "../db/transaction.ts";
import { getPickupPoint, pointOutOfReach } from "../pickup-points/lookup.ts";
import { orderFacts, shippingTypeOf, type OrderFactsInput } from "./facts.ts";
import { loadShippingConfig } from "./merchant-config.ts";
import { buildShippingOptions } from "./methods.ts";

export type OwnAnswer = { available: true; price: Price } | { available: false; reason: ShippingUnavailableReason };

/**
 * The order's own answer for `destination` (`home`, `letter` or a pickup point id), read on `db` (the order's
 * transaction: on the embedded database the only connection). The configuration is read, not taken from the
 * cache: the order is checked against the prices in force as it commits.
 */
export async function orderOwnAnswer(
  db: Executor,
  merchantId: string,
  order: OrderFactsInput,
  destination: string,
): Promise<OwnAnswer> {
  const config = await loadShippingConfig(db, merchantId);
  const method = shippingTypeOf(destination)!;
  const point = method === "pickup" ? await getPickupPoint(db, destination) : undefined;
  // The order's own options offer only points within the merchant's reach of the customer (withinReach).
  const beyond = point && (await pointOutOfReach(db, order.customer, point, config.settings.pickup.max_distance_km));
  if (beyond) return { available: false, reason: beyond };
  const facts = orderFacts({ ...order, destination }, config.settings.letter, point?.branch ?? null);
  const options = buildShippingOptions({
    settings: config.settings,
    priceLists: config.priceLists,
    facts,
    pickupPoints: point ? [point] : [],
  });
  if (method === "pickup") {
    const pickup = options.pickup;
    return pickup.available ? { available: true, price: pickup.pickup_points[destination]!.price } : pickup;
  }
  const option = options[method];
  return option.available ? { available: true, price: option.price } : { available: false, reason: option.reason };
}
