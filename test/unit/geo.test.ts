import { describe, expect, it } from "vitest";
import { boundingBox, distanceM, EARTH_RADIUS_M, inBoundingBox } from "../../server/shared/geo.ts";

const ONE_DEGREE_M = (Math.PI / 180) * EARTH_RADIUS_M; // 111 195.08 m

describe("distanceM", () => {
  it("is 0 for the same point and symmetric", () => {
    expect(distanceM([60.407, 22.369], [60.407, 22.369])).toBe(0);
    expect(distanceM([60.1699, 24.9384], [60.4518, 22.2666])).toBeCloseTo(
      distanceM([60.4518, 22.2666], [60.1699, 24.9384]),
      6,
    );
  });

  it("is one degree of arc along a meridian and along the equator", () => {
    expect(distanceM([60, 25], [61, 25])).toBeCloseTo(ONE_DEGREE_M, 3);
    expect(distanceM([0, 0], [0, 1])).toBeCloseTo(ONE_DEGREE_M, 3);
  });

  it("shrinks east-west with latitude (cos 60 = 0.5)", () => {
    expect(distanceM([60, 24], [60, 24.002])).toBeCloseTo(0.002 * ONE_DEGREE_M * 0.5, 1);
  });

  it("gives Helsinki - Turku about 150 km and the spec example's points 229 m and 488 m apart", () => {
    expect(distanceM([60.1699, 24.9384], [60.4518, 22.2666]) / 1000).toBeCloseTo(150.6, 0);
    expect(Math.round(distanceM([60.17116, 24.93265], [60.16916, 24.93169]))).toBe(229);
    expect(Math.round(distanceM([60.17116, 24.93265], [60.17098, 24.94146]))).toBe(488);
  });

  it("is half the circumference for antipodes and takes the short way over the antimeridian", () => {
    expect(distanceM([0, 0], [0, 180])).toBeCloseTo(Math.PI * EARTH_RADIUS_M, 3);
    expect(distanceM([10, 179.5], [10, -179.5])).toBeCloseTo(ONE_DEGREE_M * Math.cos((10 * Math.PI) / 180), -1);
  });
});

describe("boundingBox", () => {
  it("contains every point within the radius and is tight in latitude", () => {
    const center: [number, number] = [60.407, 22.369];
    const r = 25_000;
    const box = boundingBox(center, r);
    expect(box.maxLat - center[0]).toBeCloseTo(r / ONE_DEGREE_M, 9);
    expect(distanceM(center, [box.maxLat, center[1]])).toBeCloseTo(r, 3);
    for (let dLat = -0.3; dLat <= 0.3; dLat += 0.01) {
      for (let dLon = -0.6; dLon <= 0.6; dLon += 0.01) {
        const p: [number, number] = [center[0] + dLat, center[1] + dLon];
        if (distanceM(center, p) <= r) expect(inBoundingBox(p, box), p.join(",")).toBe(true);
      }
    }
  });

  it("reaches the circle's widest longitude, which is wider than r / cos(lat)", () => {
    const center: [number, number] = [70, 25];
    const r = 500_000;
    const box = boundingBox(center, r);
    const naive = r / ONE_DEGREE_M / Math.cos((70 * Math.PI) / 180);
    expect(box.maxLon - 25).toBeGreaterThan(naive);
    // Some point of the circle lies at (almost) maxLon: scan the latitudes.
    let widest = 0;
    for (let lat = 65; lat <= 75; lat += 0.001) {
      if (distanceM(center, [lat, box.maxLon - 1e-6]) <= r) widest = Math.max(widest, box.maxLon);
    }
    expect(widest).toBe(box.maxLon);
  });

  it("wraps across the antimeridian with minLon > maxLon", () => {
    const box = boundingBox([0, 179.9], 50_000);
    expect(box.minLon).toBeGreaterThan(box.maxLon);
    expect(inBoundingBox([0, -179.9], box)).toBe(true);
    expect(inBoundingBox([0, 179.7], box)).toBe(true);
    expect(inBoundingBox([0, 0], box)).toBe(false);
  });

  it("spans every longitude when the circle reaches a pole", () => {
    expect(boundingBox([89.9, 10], 50_000)).toMatchObject({ minLon: -180, maxLon: 180, maxLat: 90 });
  });

  it("refuses a negative radius", () => {
    expect(() => boundingBox([60, 25], -1)).toThrow(RangeError);
  });
});
