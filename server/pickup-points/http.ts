// Pickup point directory operations, keyed by operationId. The validator has checked the query against the spec
// (and filled in the defaults of `country` and `limit`).
import type { HandlersWith } from "../operations.ts";
import { normalisePostalCode } from "../shared/postal-codes.ts";
import type { TtlCache } from "../shared/ttl-cache.ts";
import { getPickupPoint, listBranches, lookupPickupPoints, type Nearest } from "./lookup.ts";

export const pickupPointHandlers = {
  lookupPickupPoints: async (c, { caches }) => ({
    status: 200,
    body: await lookupPickupPoints(c.db, caches.directory, {
      postalcode: normalisePostalCode(c.query.country, c.query.postalcode),
      country: c.query.country,
      limit: c.query.limit,
    }),
  }),
  listNearestPickupPoints: async (c, { caches }) => ({
    status: 200,
    body: await lookupPickupPoints(c.db, caches.directory, {
      postalcode: normalisePostalCode(c.query.country, c.query.postalcode),
      country: c.query.country,
      limit: c.query.limit,
    }),
  }),
  listPickupPointBranches: async (c) => ({ status: 200, body: await listBranches(c.db) }),
  getPickupPoint: async (c) => ({ status: 200, body: await getPickupPoint(c.db, c.path.pickup_point_id) }),
} satisfies HandlersWith<{ caches: { directory: TtlCache<Nearest> } }>;
