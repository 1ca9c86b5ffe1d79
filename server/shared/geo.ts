// Great-circle geometry on a spherical Earth: good to ~0.5 % anywhere, far better than postal-code centroids are.
import type { components } from "../../generated/api.ts";

export type Coordinates = components["schemas"]["Coordinates"];

/** IUGG mean Earth radius. PostgreSQL's earthdistance `earth()` is 6378168 m: compute `distance_m` in one place. */
export const EARTH_RADIUS_M = 6_371_008.8;

const RAD = Math.PI / 180;

/** Haversine distance in metres between two [lat, lon] points (degrees). */
export function distanceM(a: Coordinates, b: Coordinates, radiusM = EARTH_RADIUS_M): number {
  const [lat1, lon1] = a;
  const [lat2, lon2] = b;
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  // min() guards asin against rounding just above 1 for antipodal points.
  return 2 * radiusM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Latitude/longitude limits of every point within `radiusM` of `center`, for an index-friendly SQL prefilter
 * (`lat BETWEEN minLat AND maxLat AND lon BETWEEN minLon AND maxLon`) before the exact distance.
 * When the circle crosses the antimeridian, `minLon > maxLon` and the filter is `lon >= minLon OR lon <= maxLon`;
 * when it reaches a pole, longitudes span [-180, 180].
 */
export interface BoundingBox {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

export function boundingBox(center: Coordinates, radiusM: number, earthRadiusM = EARTH_RADIUS_M): BoundingBox {
  if (!(radiusM >= 0)) throw new RangeError("radiusM must be a non-negative number");
  const [lat, lon] = center;
  const angular = radiusM / earthRadiusM; // radians
  const minLat = lat - angular / RAD;
  const maxLat = lat + angular / RAD;
  if (angular >= Math.PI || minLat <= -90 || maxLat >= 90) {
    return { minLat: Math.max(minLat, -90), maxLat: Math.min(maxLat, 90), minLon: -180, maxLon: 180 };
  }
  // The widest longitude of a circle on a sphere (tangent meridians), not radius / cos(lat), which undershoots.
  const dLon = Math.asin(Math.sin(angular) / Math.cos(lat * RAD)) / RAD;
  let minLon = lon - dLon;
  let maxLon = lon + dLon;
  if (minLon < -180) minLon += 360;
  if (maxLon > 180) maxLon -= 360;
  return { minLat, maxLat, minLon, maxLon };
}

/** Whether a point lies inside the box, honouring the antimeridian form of `boundingBox`. */
export function inBoundingBox(point: Coordinates, box: BoundingBox): boolean {
  const [lat, lon] = point;
  if (lat < box.minLat || lat > box.maxLat) return false;
  return box.minLon <= box.maxLon ? lon >= box.minLon && lon <= box.maxLon : lon >= box.minLon || lon <= box.maxLon;
}
