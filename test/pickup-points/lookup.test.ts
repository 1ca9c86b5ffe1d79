// Nearest pickup points, the customer's location, one point by id: on the demo directory and on generated points.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient, operations } from "../../client/index.ts";
import { distanceM } from "../../server/shared/geo.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { configure, geonames, importCodes, importPoints, loadDemo, point, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
const demoPoints: S["PickupPoint"][] = JSON.parse(
  readFileSync(new URL("../../server/pickup-points/demo/pickup-points.json", import.meta.url), "utf8"),
);
const KAARINA: [number, number] = [60.407, 22.369]; // 20780 in the demo postal codes
const HELSINKI: [number, number] = [60.17116, 24.93265]; // 00100
const IVALO: [number, number] = [68.658, 27.54]; // 99800: the nearest demo point is in Tampere, 814 km away

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
/** A merchant whose pickup.max_distance_km is the highest the spec allows (1000 km). */
let far: LogisticsClient;

useTestServer(async (s) => {
  srv = s;
  await loadDemo(srv);
  [m, w, far] = await Promise.all([srv.merchant(), srv.operator(), srv.merchant()]);
  await configure(far, { ...SETTINGS, pickup: { enabled: true, max_distance_km: 1000 } }, []);
});

async function lookup(c: LogisticsClient, query: operations["lookupPickupPoints"]["parameters"]["query"]) {
  const r = await c.GET("/pickup_points/lookup", { params: { query } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return r.data!;
}

/** Every FI point sorted by great-circle distance from `origin` (ties by id): what the answer must be. */
const bruteForce = (points: S["PickupPoint"][], origin: [number, number], country = "FI") =>
  points
    .filter((p) => p.country === country)
    .map((p) => ({ id: p.id, d: distanceM(origin, p.coordinates) }))
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));

describe("GET /pickup_points/lookup and /pickup_points", () => {
  it("gives the 10 nearest points to 20780, nearest first, with great-circle distance_m from the postal code's location", async () => {
    const r = await lookup(m, { postalcode: "20780" });
    expect(r).toMatchObject({
      postalcode: "20780",
      country: "FI",
      origin: { coordinates: KAARINA, source: "postal_code" },
    });
    const expected = bruteForce(demoPoints, KAARINA).slice(0, 10);
    expect(r.pickup_points.map((p) => p.id)).toEqual(expected.map((e) => e.id));
    expect(r.pickup_points.map((p) => p.distance_m)).toEqual(expected.map((e) => Math.round(e.d)));
    const first = demoPoints.find((p) => p.id === r.pickup_points[0]!.id)!;
    expect(JSON.stringify(r.pickup_points[0])).toBe(
      JSON.stringify({ ...first, distance_m: r.pickup_points[0]!.distance_m }),
    );
  });

  it("honours limit, answers the same on both paths, and to warehouse operators", async () => {
    const three = await lookup(m, { postalcode: "00100", country: "FI", limit: 3 });
    expect(three.pickup_points).toHaveLength(3);
    const list = await m.GET("/pickup_points", { params: { query: { postalcode: "00100", limit: 3 } } });
    expect(list.data).toEqual(three);
    expect(await lookup(w, { postalcode: "00100", limit: 3 })).toEqual(three);
    // 50 asked for: the demo's 59 points reach 165 km from Helsinki; within 1000 km, 50 of them.
    expect((await lookup(far, { postalcode: "00100", limit: 50 })).pickup_points.map((p) => p.id)).toEqual(
      bruteForce(demoPoints, HELSINKI)
        .slice(0, 50)
        .map((e) => e.id),
    );
  });

  it("lists only points within the merchant's pickup.max_distance_km (default 50 km, a warehouse's 50 km)", async () => {
    const within = (km: number) =>
      bruteForce(demoPoints, HELSINKI)
        .filter((e) => e.d <= km * 1000)
        .map((e) => e.id);
    expect(within(50).length).toBeGreaterThan(10);
    expect(within(50).length).toBeLessThan(50);
    for (const c of [m, w, m]) {
      const r = await lookup(c, { postalcode: "00100", limit: 50 });
      expect(r.pickup_points.map((p) => p.id)).toEqual(within(50));
      expect(r).not.toHaveProperty("reason");
    }
    const near = await srv.merchant();
    await configure(near, { ...SETTINGS, pickup: { enabled: true, max_distance_km: 1 } }, []);
    const one = await lookup(near, { postalcode: "00100", limit: 50 });
    expect(one.pickup_points.map((p) => p.id)).toEqual(within(1));
    expect(one.pickup_points.every((p) => p.distance_m <= 1000)).toBe(true);
  });

  it("answers 99800 (Ivalo) with no points and reason pickup_points_too_far; a merchant allowing 1000 km gets them", async () => {
    for (const c of [m, w]) {
      expect(await lookup(c, { postalcode: "99800" })).toEqual({
        postalcode: "99800",
        country: "FI",
        origin: { coordinates: IVALO, source: "postal_code" },
        pickup_points: [],
        reason: "pickup_points_too_far",
      });
    }
    const r = await lookup(far, { postalcode: "99800", limit: 3 });
    expect(r.pickup_points.map((p) => p.id)).toEqual(
      bruteForce(demoPoints, IVALO)
        .slice(0, 3)
        .map((e) => e.id),
    );
    expect(r.pickup_points[0]!.distance_m).toBe(Math.round(bruteForce(demoPoints, IVALO)[0]!.d)); // 814 km
    expect(r).not.toHaveProperty("reason");
  });

  it("places an unknown postal code at the centre of the directory's points in it", async () => {
    await importPoints(srv, [
      point({ postalcode: "20999", coordinates: [60.5, 22.5] }),
      point({ postalcode: "20999", coordinates: [60.6, 22.7] }),
    ]);
    const r = await lookup(m, { postalcode: "20999", limit: 2 });
    expect(r.origin.source).toBe("pickup_points_in_postal_code");
    expect(r.origin.coordinates![0]).toBeCloseTo(60.55, 9);
    expect(r.origin.coordinates![1]).toBeCloseTo(22.6, 9);
  });

  it("answers a postal code the directory does not know with reason unknown_postal_code, never a neighbour's points", async () => {
    // 99999 does not exist; 20781 sits beside Kaarina's 20780 (the lookup once answered with 20780's points).
    for (const postalcode of ["99999", "20781"]) {
      for (const c of [m, w, far]) {
        expect(await lookup(c, { postalcode })).toEqual({
          postalcode,
          country: "FI",
          origin: { coordinates: null, source: "none" },
          pickup_points: [],
          reason: "unknown_postal_code",
        });
      }
    }
  });

  it("answers a country the directory does not cover (no postal codes imported) with reason no_pickup_points", async () => {
    expect(await lookup(m, { postalcode: "111 22", country: "SE" })).toEqual({
      postalcode: "111 22",
      country: "SE",
      origin: { coordinates: null, source: "none" },
      pickup_points: [],
      reason: "no_pickup_points",
    });
  });

  it("accepts a space in a postal code as %20 or, form-encoded, as +", async () => {
    for (const encoded of ["111%2022", "111+22"]) {
      const r = await m.GET("/pickup_points/lookup", {
        params: { query: { postalcode: "111 22", country: "SE" } },
        querySerializer: () => `postalcode=${encoded}&country=SE`,
      });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      expect(r.data!.postalcode).toBe("111 22");
    }
  });

  it("never offers another country's points, however close", async () => {
    await importCodes(srv, [geonames("SE", "953 33", 65.84, 24.15, "Haparanda")]);
    const swedish = point({
      country: "SE",
      postalcode: "953 33",
      city: "HAPARANDA",
      coordinates: [65.8401, 24.1501],
      branch: "se.postnord",
    });
    await importPoints(srv, [swedish]);
    const fi = await lookup(m, { postalcode: "20780", limit: 50 });
    expect(fi.pickup_points.map((p) => p.id)).not.toContain(swedish.id);
    const se = await lookup(m, { postalcode: "953 33", country: "SE" });
    expect(se.pickup_points.map((p) => p.id)).toEqual([swedish.id]);
    expect(se.pickup_points[0]!.distance_m).toBe(Math.round(distanceM([65.84, 24.15], [65.8401, 24.1501])));
  });

  it.each([
    ["postalcode not of the country", { postalcode: "ABC12" }, "/query/postalcode"],
    ["postalcode with 4 digits in FI", { postalcode: "2078" }, "/query/postalcode"],
    ["postalcode off the spec's pattern", { postalcode: "20780!" }, "/query/postalcode"],
    ["lower-case country", { postalcode: "20780", country: "fi" }, "/query/country"],
    ["three-letter country", { postalcode: "20780", country: "FIN" }, "/query/country"],
    ["limit 0", { postalcode: "20780", limit: 0 }, "/query/limit"],
    ["limit 51", { postalcode: "20780", limit: 51 }, "/query/limit"],
  ])("refuses %s: 400 validation_failed naming it", async (_name, query, path) => {
    const r = await expectUnchanged(srv, () => m.GET("/pickup_points/lookup", { params: { query: query as never } }));
    expectError(r, 400, "validation_failed", [path]);
    expectError(await m.GET("/pickup_points", { params: { query: query as never } }), 400, "validation_failed", [path]);
  });

  it("names a postal code the country cannot have beside the query's other problems in one 400", async () => {
    for (const path of ["/pickup_points/lookup", "/pickup_points"] as const) {
      for (const [other, value] of [
        ["limit", 0],
        ["radius", 5],
      ] as const) {
        const query = { postalcode: "ABC12", [other]: value } as never;
        const r = await expectUnchanged(srv, () => m.GET(path, { params: { query } }));
        const error = expectError(r, 400, "validation_failed", ["/query/postalcode", `/query/${other}`]);
        expect(error.details.find((d) => d.path === "/query/postalcode")).toMatchObject({ code: "pattern" });
      }
    }
  });

  it("refuses a missing postalcode and an unknown parameter", async () => {
    expectError(await m.GET("/pickup_points/lookup", { params: { query: {} as never } }), 400, "validation_failed", [
      "/query/postalcode",
    ]);
    expectError(
      await m.GET("/pickup_points/lookup", { params: { query: { postalcode: "20780", radius: 5 } as never } }),
      400,
      "validation_failed",
    );
  });
});

describe("GET /pickup_points/{id}", () => {
  it("returns the point as imported (carrier fields in the spec's order); 404 for an unknown id; 400 for a malformed one", async () => {
    const demo = demoPoints.find((p) => p.carrier_info.fi_posti?.label_name)!;
    for (const c of [m, w]) {
      const r = await c.GET("/pickup_points/{pickup_point_id}", { params: { path: { pickup_point_id: demo.id } } });
      expect(r.response.status).toBe(200);
      expect(JSON.stringify(r.data)).toBe(JSON.stringify(demo));
    }
    expectError(
      await m.GET("/pickup_points/{pickup_point_id}", {
        params: { path: { pickup_point_id: "0123456789abcdef01234567" } },
      }),
      404,
      "not_found",
    );
    expectError(
      await m.GET("/pickup_points/{pickup_point_id}", { params: { path: { pickup_point_id: "nope" } } }),
      400,
      "validation_failed",
      ["/params/pickup_point_id"],
    );
  });
});

describe("nearest points on a larger directory", () => {
  it("match a brute-force great-circle sort for origins across Finland and at its edges", async () => {
    // A deterministic spread of 3000 points over Finland (and a few at the same spot, to test ties by id).
    let s = 7;
    const rand = () => (s = (s * 48271) % 2147483647) / 2147483647;
    const many = Array.from({ length: 3000 }, () => point({ coordinates: [59.8 + rand() * 10.2, 20.5 + rand() * 11] }));
    const twins = Array.from({ length: 3 }, () => point({ coordinates: [62.5, 25.5] }));
    await importPoints(srv, [...many, ...twins]);
    const all = [...demoPoints, ...many, ...twins, point({ id: "x".repeat(24), country: "SE" })].filter(
      (p) => p.country === "FI",
    );
    // The 20999 points imported above.
    const extra = await srv.handle.db
      .selectFrom("pickup_points")
      .select(["id", "lat", "lon"])
      .where("postalcode", "=", "20999")
      .execute();
    const fi = [...all, ...extra.map((e) => point({ id: e.id, coordinates: [e.lat, e.lon] }))];
    const origins: [string, [number, number]][] = [
      ["Utsjoki", [69.9, 27.0]],
      ["Hanko", [59.82, 22.95]],
      ["Jyväskylä", [62.24, 25.75]],
      ["twins", [62.5, 25.5]],
    ];
    for (const [name, origin] of origins) {
      await importCodes(srv, [geonames("FI", "99999", ...origin, name)]);
      const r = await lookup(far, { postalcode: "99999", limit: 50 });
      expect(r.origin.coordinates).toEqual(origin);
      expect(r.pickup_points.at(-1)!.distance_m, name).toBeLessThan(1_000_000);
      const expected = bruteForce(fi, origin).slice(0, 50);
      expect(
        r.pickup_points.map((p) => p.id),
        name,
      ).toEqual(expected.map((e) => e.id));
    }
  });
});
