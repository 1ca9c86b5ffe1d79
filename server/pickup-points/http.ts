// Pickup point directory operations, keyed by operationId. The validator has checked the query against the spec
// (and filled in the defaults of `country` and `limit`).
import type { Principal } from "../accounts/domain.ts";
import type { Db } from "../db/database.ts";
import type { Context, HandlersWith, ValueRules } from "../operations.ts";
import { shippingConfig, type ShippingConfig } from "../shipping/merchant-config.ts";
import { DEFAULT_SETTINGS } from "../shipping/settings.ts";
import { normalisePostalCode, queryPostalCodeProblems } from "../shared/postal-codes.ts";
import { queryDefault } from "../shared/spec-schemas.ts";
import type { TtlCache } from "../shared/ttl-cache.ts";
import { getPickupPoint, listBranches, lookupPickupPoints, type Nearest } from "./lookup.ts";

interface Caches {
  directory: TtlCache<Nearest>;
  shippingConfig: TtlCache<ShippingConfig>;
}

/** How far a listed point may be: the merchant's `pickup.max_distance_km`; a warehouse caller's, the default. */
async function maxDistanceKm(db: Db, caches: Caches, principal: Principal): Promise<number> {
  if (principal.role !== "merchant") return DEFAULT_SETTINGS.pickup.max_distance_km;
  return (await shippingConfig(db, caches.shippingConfig, principal.id)).settings.pickup.max_distance_km;
}

async function lookup(c: Context<"lookupPickupPoints" | "listNearestPickupPoints">, caches: Caches) {
  return lookupPickupPoints(c.db, caches.directory, {
    postalcode: normalisePostalCode(c.query.country, c.query.postalcode),
    country: c.query.country,
    limit: c.query.limit,
    maxDistanceKm: await maxDistanceKm(c.db, caches, c.principal),
  });
}

export const pickupPointHandlers = {
  lookupPickupPoints: async (c, { caches }) => ({ status: 200, body: await lookup(c, caches) }),
  listNearestPickupPoints: async (c, { caches }) => ({ status: 200, body: await lookup(c, caches) }),
  listPickupPointBranches: async (c) => ({ status: 200, body: await listBranches(c.db) }),
  getPickupPoint: async (c) => ({ status: 200, body: await getPickupPoint(c.db, c.path.pickup_point_id) }),
} satisfies HandlersWith<{ caches: Caches }>;

// Without a country, each lookup's default from the spec.
const LOOKUP_COUNTRY = queryDefault("lookupPickupPoints", "country");
const NEAREST_COUNTRY = queryDefault("listNearestPickupPoints", "country");

/** The value rules of the pickup point lookups, keyed by operationId: a postal code the country can have. */
export const pickupPointValueRules = {
  lookupPickupPoints: ({ query }) => queryPostalCodeProblems(query, LOOKUP_COUNTRY),
  listNearestPickupPoints: ({ query }) => queryPostalCodeProblems(query, NEAREST_COUNTRY),
} satisfies ValueRules;
