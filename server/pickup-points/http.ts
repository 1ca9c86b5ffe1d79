// Pickup point directory operations, keyed by operationId. The validator has checked the query against the spec
// (and filled in `country` FI and `limit` 10).
import type { HandlersWith } from "../http/registry.ts";
import type { TtlCache } from "../shared/ttl-cache.ts";
import { getPickupPoint, lookupPickupPoints, type Nearest } from "./lookup.ts";

export const pickupPointHandlers = {
  lookupPickupPoints: async (c, { caches }) => ({
    status: 200,
    body: await lookupPickupPoints(c.db, caches.directory, {
      postalcode: c.query.postalcode,
      country: c.query.country ?? "FI",
      limit: c.query.limit ?? 10,
    }),
  }),
  listNearestPickupPoints: async (c, { caches }) => ({
    status: 200,
    body: await lookupPickupPoints(c.db, caches.directory, {
      postalcode: c.query.postalcode,
      country: c.query.country ?? "FI",
      limit: c.query.limit ?? 10,
    }),
  }),
  getPickupPoint: async (c) => ({ status: 200, body: await getPickupPoint(c.db, c.path.pickup_point_id) }),
} satisfies HandlersWith<{ caches: { directory: TtlCache<Nearest> } }>;
