// The shipped demo directory and the benchmark generator produce files the importers accept, with plausible places.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGeoNamesPostalCodes } from "../../server/pickup-points/geonames-format.ts";
import { parsePickupPointsCsv, parsePickupPointsJson } from "../../server/pickup-points/import-format.ts";
import { distanceM } from "../../server/shared/geo.ts";
import { demoPointsText, demoPostalCodesText } from "../../tools/demo-pickup-points.ts";
import { generateDirectory, pointsAsCsv, pointsAsJson } from "../../tools/generate-pickup-points.ts";

const demoDir = new URL("../../server/pickup-points/demo/", import.meta.url);
const pointsText = readFileSync(new URL("pickup-points.json", demoDir), "utf8");
const postalText = readFileSync(new URL("postal-codes.txt", demoDir), "utf8");

describe("demo directory", () => {
  const points = parsePickupPointsJson(pointsText);
  const codes = parseGeoNamesPostalCodes(postalText);
  const where = new Map(codes.records.map((c) => [c.postalcode, c.coordinates]));

  it("passes the importers' validation", () => {
    expect(points.errors).toEqual([]);
    expect(points.records.length).toBeGreaterThanOrEqual(40);
    expect(points.records.length).toBeLessThanOrEqual(80);
    expect(codes.errors).toEqual([]);
    expect(codes.merged).toBe(0);
  });

  it("is what tools/demo-pickup-points.ts builds (run `npm run build:demo-pickup-points` after editing it)", () => {
    expect(pointsText).toBe(demoPointsText());
    expect(postalText).toBe(demoPostalCodesText());
  });

  it("covers Kaarina 20780 and central Helsinki, and the spec's example points", () => {
    const inCode = (code: string) => points.records.filter((p) => p.postalcode === code).length;
    expect(inCode("20780")).toBeGreaterThanOrEqual(4);
    for (const code of ["00100", "00120", "00130", "00170", "00180"])
      expect(inCode(code), code).toBeGreaterThanOrEqual(1);
    expect(points.records.some((p) => p.city === "TAMPERE")).toBe(true);
    expect(points.records.some((p) => p.city === "ESPOO")).toBe(true);
    expect(points.records.find((p) => p.id === "5a1f0c2e9b8d7a6f5e4d3c2b")?.name).toBe("K-Market Kamppi");
    expect(points.records.find((p) => p.id === "5a1f0c2e9b8d7a6f5e4d3c2c")?.name).toBe("R-kioski Rautatientori");
    expect(new Set(points.records.map((p) => p.branch))).toEqual(
      new Set(["fi.posti", "fi.matkahuolto", "fi.db_schenker"]),
    );
  });

  it("locates every point's postal code, and every point lies within 4 km of it", () => {
    for (const p of points.records) {
      const origin = where.get(p.postalcode);
      expect(origin, `${p.name} ${p.postalcode}`).toBeDefined();
      expect(distanceM(origin!, p.coordinates), `${p.name}`).toBeLessThan(4000);
    }
    expect(codes.records.length).toBeGreaterThanOrEqual(60);
  });

  it("has the points nearest to 20780 in Kaarina", () => {
    const origin = where.get("20780")!;
    const nearest = [...points.records].sort(
      (a, b) => distanceM(origin, a.coordinates) - distanceM(origin, b.coordinates),
    );
    expect(nearest.slice(0, 5).every((p) => p.city === "KAARINA")).toBe(true);
  });
});

describe("generator", () => {
  const a = generateDirectory(3000, 7);

  it("is deterministic per seed and differs between seeds", () => {
    expect(generateDirectory(3000, 7)).toEqual(a);
    expect(generateDirectory(3000, 8).points[0]!.id).not.toBe(a.points[0]!.id);
  });

  it("writes JSON and CSV the importers accept, with the same records", () => {
    const json = parsePickupPointsJson(pointsAsJson(a.points));
    expect(json.errors).toEqual([]);
    expect(json.records).toHaveLength(3000);
    const csv = parsePickupPointsCsv(pointsAsCsv(a.points));
    expect(csv.errors).toEqual([]);
    expect(csv.records).toEqual(json.records);
  });

  it("writes a postal-code file covering every point, each point near its code", () => {
    const codes = parseGeoNamesPostalCodes(
      a.postalCodes
        .map((c) =>
          [
            c.country,
            c.postalcode,
            c.place_name,
            c.admin_name1,
            c.admin_code1,
            "",
            "",
            "",
            "",
            c.coordinates[0],
            c.coordinates[1],
            4,
          ].join("\t"),
        )
        .join("\n"),
    );
    expect(codes.errors).toEqual([]);
    expect(codes.merged).toBe(0);
    const where = new Map(codes.records.map((c) => [c.postalcode, c.coordinates]));
    for (const p of a.points) expect(distanceM(where.get(p.postalcode)!, p.coordinates)).toBeLessThan(3000);
  });

  it("spreads points by population: Helsinki has the most, every region some", () => {
    const byCity = new Map<string, number>();
    for (const p of a.points) byCity.set(p.city, (byCity.get(p.city) ?? 0) + 1);
    const top = [...byCity.entries()].sort((x, y) => y[1] - x[1])[0]![0];
    expect(top).toBe("HELSINKI");
    expect(byCity.get("KAARINA")).toBeGreaterThan(0);
    const lats = a.points.map((p) => p.coordinates[0]);
    expect(Math.min(...lats)).toBeLessThan(60.2);
    expect(Math.max(...lats)).toBeGreaterThan(66);
  });
});
