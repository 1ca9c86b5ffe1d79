// Reading the directory: one pickup point, and the points nearest to a customer's postal code.
import type {
  CountryCode,
  PickupPointBranchList,
  PickupPoint,
  PickupPointLookupResult,
  PickupPointSearchOrigin,
  PickupPointWithDistance,
} from "../../generated/api.ts";
import type { Executor } from "../db/transaction.ts";
import { notFound } from "../shared/errors.ts";
import { distanceM, type Coordinates } from "../shared/geo.ts";
import type { TtlCache } from "../shared/ttl-cache.ts";
import * as q from "./db.ts";

export type { PickupPoint };
export type { PickupPointWithDistance };
export type Origin = PickupPointSearchOrigin;

export interface NearestQuery {
  postalcode: string;
  country: CountryCode;
  limit: number;
}

export interface Nearest {
  origin: Origin;
  points: PickupPointWithDistance[];
  /** The directory covers the country (it has the country's postal codes) but not this postal code. */
  unknownPostalCode: boolean;
}

/** Why no pickup point is offered: the codes an unavailable `pickup` and an empty lookup give. */
export type DirectoryReason = NonNullable<PickupPointLookupResult["reason"]>;

/** What the directory offers within `maxDistanceKm`: the points, nearest first, or the reason there are none. */
export function withinReach(
  nearest: Nearest,
  maxDistanceKm: number,
): { points: PickupPointWithDistance[]; reason: DirectoryReason | null } {
  if (nearest.unknownPostalCode) return { points: [], reason: "unknown_postal_code" };
  if (nearest.points.length === 0) return { points: [], reason: "no_pickup_points" };
  const maxM = maxDistanceKm * 1000;
  // Nearest first: the usual case, every point within reach, is the last point's test alone.
  if (nearest.points[nearest.points.length - 1]!.distance_m <= maxM) return { points: nearest.points, reason: null };
  const points = nearest.points.filter((p) => p.distance_m <= maxM);
  return { points, reason: points.length ? null : "pickup_points_too_far" };
}

// The index orders by chord length; JS computes `distance_m` with shared/geo.ts and breaks exact ties by id. A few
// extra rows make the cut at `limit` deterministic unless more than TIE_MARGIN points share one location.
const TIE_MARGIN = 4;

function withDistances(origin: Coordinates, rows: q.PointRow[], limit: number): PickupPointWithDistance[] {
  return rows
    .map((r) => ({ r, d: distanceM(origin, [r.lat, r.lon]) }))
    .sort((a, b) => a.d - b.d || (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0))
    .slice(0, limit)
    .map(({ r, d }) => ({ ...q.toPickupPoint(r), distance_m: Math.round(d) }));
}

/**
 * The customer's location and the `limit` points of the country nearest to it, nearest first by great-circle
 * distance, with `distance_m`. The location is the postal code's own; else the centre of the directory's points
 * in that postal code; else none: the postal code is unknown when the directory has the country's postal codes
 * (never answered as a neighbouring postal code's), else the country is not covered (no points). The first two
 * cases, the usual ones, take one round trip; answers are cached in `directory`. The result is shared: callers
 * must not change it. The postal code is one its country can have: the operations' value rules refuse any other
 * (pickupPointValueRules, shippingValueRules), and stored orders and imports were checked when they entered.
 */
export async function nearestPickupPoints(
  db: Executor,
  directory: TtlCache<Nearest>,
  query: NearestQuery,
): Promise<Nearest> {
  return directory.get(nearestKey(query), () => findNearest(db, query));
}

const nearestKey = (query: NearestQuery) => `${query.country}\0${query.postalcode}\0${query.limit}`;

/** nearestPickupPoints' answer when `directory` has it fresh, at once; else undefined. */
export const freshNearestPickupPoints = (directory: TtlCache<Nearest>, query: NearestQuery): Nearest | undefined =>
  directory.fresh(nearestKey(query));

async function findNearest(db: Executor, query: NearestQuery): Promise<Nearest> {
  const fetch = query.limit + TIE_MARGIN;
  const rows = await q.nearestToPostalCode(db, query.country, query.postalcode, fetch);
  const first = rows[0];
  if (first) {
    const coordinates: Coordinates = [Number(first.origin_lat), Number(first.origin_lon)];
    const origin: Origin = {
      coordinates,
      source: Number(first.rank) === 1 ? "postal_code" : "pickup_points_in_postal_code",
    };
    return {
      origin,
      points: withDistances(
        coordinates,
        rows.filter((r) => r.id !== null),
        query.limit,
      ),
      unknownPostalCode: false,
    };
  }
  const unknownPostalCode = await q.coversCountry(db, query.country);
  return { origin: { coordinates: null, source: "none" }, points: [], unknownPostalCode };
}

/** The lookup's answer: the nearest points within `maxDistanceKm`, or none and the reason. */
export async function lookupPickupPoints(
  db: Executor,
  directory: TtlCache<Nearest>,
  query: NearestQuery & { maxDistanceKm: number },
): Promise<PickupPointLookupResult> {
  const nearest = await nearestPickupPoints(db, directory, query);
  const { points, reason } = withinReach(nearest, query.maxDistanceKm);
  return {
    postalcode: query.postalcode,
    country: query.country,
    origin: nearest.origin,
    pickup_points: points,
    ...(reason && { reason }),
  };
}

/**
 * Why `point` is not within `maxDistanceKm` of a customer at `postalcode` (withinReach's reasons, measured from the
 * same origin the nearest points are), or null when it is. Read on `db` without the cache: an order's check.
 */
export async function pointOutOfReach(
  db: Executor,
  customer: { postalcode: string; country: CountryCode },
  point: PickupPoint,
  maxDistanceKm: number,
): Promise<DirectoryReason | null> {
  const [first] = await q.nearestToPostalCode(db, customer.country, customer.postalcode, 1);
  if (!first) return (await q.coversCountry(db, customer.country)) ? "unknown_postal_code" : "no_pickup_points";
  const origin: Coordinates = [Number(first.origin_lat), Number(first.origin_lon)];
  return Math.round(distanceM(origin, point.coordinates)) <= maxDistanceKm * 1000 ? null : "pickup_points_too_far";
}

export async function getPickupPoint(db: Executor, id: string): Promise<PickupPoint> {
  const row = await q.findPoint(db, id);
  if (!row) throw notFound("Pickup point");
  return q.toPickupPoint(row);
}

/** The branch of a pickup point, or undefined when the directory has no such point (orders validate with it). */
export async function pickupPointBranch(db: Executor, id: string): Promise<string | undefined> {
  return (await q.findPoint(db, id))?.branch;
}

/** The branches (chains) of the directory and how many points each has: what `pup.branch` can be. */
export async function listBranches(db: Executor): Promise<PickupPointBranchList> {
  return { items: await q.branchCounts(db) };
}
