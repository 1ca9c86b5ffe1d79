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
import { invalid, notFound } from "../shared/errors.ts";
import { distanceM, type Coordinates } from "../shared/geo.ts";
import { postalCodeProblem } from "../shared/postal-codes.ts";
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

/** A postal code the country cannot have is bad input (400), not an empty answer. */
export function checkPostalCode(country: string, postalcode: string): void {
  const problem = postalCodeProblem(country, postalcode);
  if (problem) throw invalid([{ path: "/query/postalcode", message: problem, code: "pattern" }]);
}

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/**
 * Of the known postal codes just before and after an unknown one in sort order, the one that shares the longer
 * prefix (postal codes are assigned by area: 20781 is beside 20780); then the numerically closer; then the lower.
 */
export function nearestCode(
  code: string,
  below?: q.OriginCandidate,
  above?: q.OriginCandidate,
): q.OriginCandidate | undefined {
  if (!below || !above) return below ?? above;
  const [pb, pa] = [commonPrefix(code, below.postalcode!), commonPrefix(code, above.postalcode!)];
  if (pb !== pa) return pb > pa ? below : above;
  if (/^\d+$/.test(code) && /^\d+$/.test(below.postalcode!) && /^\d+$/.test(above.postalcode!)) {
    return Number(above.postalcode) - Number(code) < Number(code) - Number(below.postalcode) ? above : below;
  }
  return below;
}

export interface Nearest {
  origin: Origin;
  points: PickupPointWithDistance[];
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
 * in that postal code; else the nearest known postal code of the country (`nearestCode`); else none (no points).
 * The first two cases, the usual ones, take one round trip; answers are cached in `directory`. The result is shared:
 * callers must not change it.
 */
export async function nearestPickupPoints(
  db: Executor,
  directory: TtlCache<Nearest>,
  query: NearestQuery,
): Promise<Nearest> {
  checkPostalCode(query.country, query.postalcode);
  return directory.get(`${query.country}\0${query.postalcode}\0${query.limit}`, () => findNearest(db, query));
}

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
    };
  }
  const neighbours = await q.neighbourCodes(db, query.country, query.postalcode);
  const near = nearestCode(
    query.postalcode,
    neighbours.find((c) => c.rank === 3),
    neighbours.find((c) => c.rank === 4),
  );
  if (!near) return { origin: { coordinates: null, source: "none" }, points: [] };
  const coordinates: Coordinates = [near.lat, near.lon];
  const points = withDistances(coordinates, await q.nearestTo(db, query.country, coordinates, fetch), query.limit);
  return { origin: { coordinates, source: "nearest_postal_code" }, points };
}

export async function lookupPickupPoints(
  db: Executor,
  directory: TtlCache<Nearest>,
  query: NearestQuery,
): Promise<PickupPointLookupResult> {
  const { origin, points } = await nearestPickupPoints(db, directory, query);
  return { postalcode: query.postalcode, country: query.country, origin, pickup_points: points };
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
