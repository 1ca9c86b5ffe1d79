import { describe, expect, it } from "vitest";
import {
  detectFormat,
  parsePickupPoints,
  parsePickupPointsCsv,
  parsePickupPointsJson,
  validatePickupPoint,
  type PickupPointRecord,
} from "../../server/pickup-points/import-format.ts";
import { formatGeoNamesLine, parseGeoNamesPostalCodes } from "../../server/pickup-points/geonames-format.ts";

const good: PickupPointRecord = {
  id: "5a1f0c2e9b8d7a6f5e4d3c2b",
  name: "K-Market Kamppi",
  address: "Urho Kekkosen katu 1",
  postalcode: "00100",
  city: "HELSINKI",
  country: "FI",
  coordinates: [60.16916, 24.93169],
  branch: "fi.posti",
  location_info: "Mon-Fri 7-22, Sat 8-22, Sun 10-22",
  carrier_info: { fi_posti: { id: "124301", label_name: "K-Market Kamppi", type: "PICKUPPOINT", office: "00100" } },
};
const other: PickupPointRecord = {
  id: "5a1f0c2e9b8d7a6f5e4d3c2c",
  name: "R-kioski Rautatientori",
  address: "Kaivokatu 1",
  postalcode: "00100",
  city: "HELSINKI",
  country: "FI",
  coordinates: [60.17098, 24.94146],
  branch: "fi.matkahuolto",
  location_info: null,
  carrier_info: { fi_matkahuolto: { id: "9617" } },
};
// As parsed: the kind their carriers' types give (PICKUPPOINT: a counter; Matkahuolto's point names no type).
const goodRead = { ...good, kind: "counter" };
const otherRead = { ...other, kind: "unknown" };
const header = "id,name,address,postalcode,city,country,lat,lon,branch,location_info,carrier_info";
const row = (p: PickupPointRecord) =>
  [
    p.id,
    p.name,
    p.address,
    p.postalcode,
    p.city,
    p.country,
    p.coordinates[0],
    p.coordinates[1],
    p.branch,
    p.location_info === null ? "" : `"${p.location_info}"`,
    `"${JSON.stringify(p.carrier_info).replace(/"/g, '""')}"`,
  ].join(",");
const fields = (value: unknown) => validatePickupPoint(value).map((p) => p.field);

describe("validatePickupPoint", () => {
  it("accepts the spec's example points", () => {
    expect(validatePickupPoint(good)).toEqual([]);
    expect(validatePickupPoint(other)).toEqual([]);
    expect(validatePickupPoint({ ...good, carrier_info: {} })).toEqual([]);
  });

  it.each([
    ["id", { id: "5A1F0C2E9B8D7A6F5E4D3C2B" }],
    ["id", { id: "5a1f0c2e" }],
    ["postalcode", { postalcode: "0010" }],
    ["postalcode", { postalcode: "00100-1" }],
    ["postalcode", { postalcode: "A" }],
    ["country", { country: "fi" }],
    ["country", { country: "FIN" }],
    ["coordinates/0", { coordinates: [90.5, 24] }],
    ["coordinates/1", { coordinates: [60, -181] }],
    ["coordinates", { coordinates: [60] }],
    ["coordinates", { coordinates: [60, 24, 0] }],
    ["coordinates/0", { coordinates: ["60", 24] }],
    ["branch", { branch: "posti" }],
    ["branch", { branch: "FI.posti" }],
    ["branch", { branch: "fi." }],
    ["branch", { branch: "fi.k--market" }],
    ["branch", { branch: "fi.-posti" }],
    ["branch", { branch: "fi.posti_" }],
    ["location_info", { location_info: 5 }],
    ["location_info", { location_info: "x".repeat(1001) }],
    ["carrier_info/FI_posti", { carrier_info: { FI_posti: { id: "1" } } }],
    ["carrier_info/fi_posti", { carrier_info: { fi_posti: { label_name: "x" } } }],
    ["carrier_info/fi_posti/id", { carrier_info: { fi_posti: { id: "" } } }],
    ["carrier_info/fi_posti", { carrier_info: { fi_posti: { id: "1", opening: "x" } } }],
    ["name", { name: "  " }],
    ["city", { city: "" }],
    ["address", { address: 7 }],
  ])("names %s", (field, change) => {
    expect(fields({ ...good, ...change })).toEqual([field]);
  });

  it.each(["fi.k-market", "fi.posti", "fi.posti.smartpost", "se.postnord_mypack", "fi.r-kioski"])(
    "accepts the branch %s",
    (branch) => {
      expect(fields({ ...good, branch })).toEqual([]);
    },
  );

  it("accepts postal codes of other countries by the spec's general pattern, and checks the known ones", () => {
    expect(fields({ ...good, country: "SE", postalcode: "111 22" })).toEqual([]);
    expect(fields({ ...good, country: "GB", postalcode: "SW1A 1AA" })).toEqual([]);
    expect(fields({ ...good, country: "EE", postalcode: "1011" })).toEqual(["postalcode"]);
  });

  it("reports a missing field and an unknown one", () => {
    const { location_info: _omit, ...missing } = good;
    expect(validatePickupPoint(missing)).toEqual([{ field: null, message: '"location_info" is required' }]);
    expect(validatePickupPoint({ ...good, opening_hours: "x" })).toEqual([
      { field: null, message: 'unknown property "opening_hours"' },
    ]);
    expect(validatePickupPoint("x")).toEqual([{ field: null, message: "must be object" }]);
  });
});

describe("parsePickupPointsJson", () => {
  it("returns every valid record and every problem by record index", () => {
    const bad = { ...other, id: "nothex", coordinates: [100, 24] };
    const result = parsePickupPointsJson(JSON.stringify([good, bad, other]));
    expect(result.records).toEqual([goodRead, otherRead]);
    expect(result.errors).toEqual([
      { record: 1, field: "id", message: expect.stringContaining("pattern") },
      { record: 1, field: "coordinates/0", message: "must be <= 90" },
    ]);
  });

  it("refuses the same id twice", () => {
    const result = parsePickupPointsJson(JSON.stringify([good, { ...other, id: good.id }]));
    expect(result.errors).toEqual([{ record: 1, field: "id", message: "duplicate id, first in record 0" }]);
  });

  it("reports bad JSON with its line, and a non-array", () => {
    const broken = parsePickupPointsJson('[\n  {"id": "x",\n  }\n]');
    expect(broken.records).toEqual([]);
    expect(broken.errors).toEqual([{ line: 3, field: null, message: expect.stringMatching(/^not valid JSON/) }]);
    expect(parsePickupPointsJson('{"id": 1}').errors).toEqual([
      { field: null, message: "must be a JSON array of pickup points" },
    ]);
    expect(parsePickupPointsJson("[]")).toEqual({ records: [], errors: [] });
  });
});

describe("parsePickupPointsCsv", () => {
  it("reads lat/lon columns, empty location_info as null and carrier_info as JSON", () => {
    const result = parsePickupPointsCsv([header, row(good), row(other)].join("\n") + "\n");
    expect(result).toEqual({ records: [goodRead, otherRead], errors: [] });
  });

  it("reads one coordinates column, any column order, a BOM and CRLF", () => {
    const text =
      "\uFEFFcoordinates,id,name,address,postalcode,city,country,branch,location_info,carrier_info\r\n" +
      `"60.16916, 24.93169",${good.id},${good.name},${good.address},00100,HELSINKI,FI,fi.posti,"${good.location_info}","${JSON.stringify(good.carrier_info).replace(/"/g, '""')}"\r\n` +
      `[60.17098 24.94146],${other.id},${other.name},${other.address},00100,HELSINKI,FI,fi.matkahuolto,,"{""fi_matkahuolto"":{""id"":""9617""}}"\r\n`;
    expect(parsePickupPointsCsv(text)).toEqual({ records: [goodRead, otherRead], errors: [] });
  });

  it("reports bad rows by the line they start on, and keeps the good ones", () => {
    const text = [
      header, // 1
      row(good), // 2
      "", // 3: blank, skipped
      row({ ...other, postalcode: "123" }), // 4
      `${row({ ...other, id: "5a1f0c2e9b8d7a6f5e4d3c2d", name: "Two\nlines" })}`, // 5-6
      row({ ...other, id: "5a1f0c2e9b8d7a6f5e4d3c2e", branch: "matkahuolto" }).replace(",60.17098,", ",north,"), // 7
      row({ ...other, id: "5a1f0c2e9b8d7a6f5e4d3c2f" }).replace(/"\{.*\}"$/, "{not json"), // 8
      "too,few,columns", // 9
      row({ ...other, id: good.id }), // 10: duplicate
      row({ ...other, id: "5a1f0c2e9b8d7a6f5e4d3c30", coordinates: [95, 24.9] }), // 11
    ].join("\n");
    const result = parsePickupPointsCsv(text.replace("Two\nlines", '"Two\nlines"').replace(',"Two', ',"Two'));
    expect(result.records.map((r) => r.id)).toEqual([good.id, "5a1f0c2e9b8d7a6f5e4d3c2d"]);
    expect(result.errors.map((e) => [e.line, e.field])).toEqual([
      [4, "postalcode"],
      [7, "lat"],
      [7, "branch"],
      [8, "carrier_info"],
      [9, null],
      [10, "id"],
      [11, "lat"],
    ]);
    expect(result.errors.find((e) => e.line === 10)?.message).toBe("duplicate id, first in line 2");
  });

  it("refuses a file whose header lacks or adds columns", () => {
    const noCoords = parsePickupPointsCsv(
      "id,name,address,postalcode,city,country,branch,location_info,carrier_info,colour\nx,x,x,x,x,x,x,x,x,x\n",
    );
    expect(noCoords.records).toEqual([]);
    expect(noCoords.errors).toEqual([
      { line: 1, field: "coordinates (or lat and lon)", message: "missing column" },
      { line: 1, field: "colour", message: "unknown column" },
    ]);
  });

  it("refuses an empty file, and accepts a header without rows", () => {
    expect(parsePickupPointsCsv("").errors).toEqual([
      { line: 1, field: null, message: "the header row naming the columns is missing" },
    ]);
    expect(parsePickupPointsCsv(header + "\n")).toEqual({ records: [], errors: [] });
    expect(parsePickupPointsCsv("id,name\n").errors.length).toBeGreaterThan(0);
  });

  it("parsePickupPoints picks the format by name or content", () => {
    expect(detectFormat("[]")).toBe("json");
    expect(detectFormat("  \n[{}]")).toBe("json");
    expect(detectFormat("id,name")).toBe("csv");
    expect(detectFormat("[]", "points.CSV")).toBe("csv");
    expect(parsePickupPoints(JSON.stringify([good])).records).toEqual([goodRead]);
    expect(parsePickupPoints([header, row(good)].join("\n")).records).toEqual([goodRead]);
  });
});

describe("an import's kind", () => {
  it("is the file's own when given, else the carriers'; a word not in the spec is refused by field", () => {
    const locker = { ...other, id: "5a1f0c2e9b8d7a6f5e4d3c2d", carrier_info: { fi_posti: { id: "1", type: "APT" } } };
    const result = parsePickupPointsJson(
      JSON.stringify([{ ...other, kind: "counter" }, locker, { ...good, kind: "unknown" }]),
    );
    expect(result).toEqual({
      records: [
        { ...other, kind: "counter" },
        { ...locker, kind: "locker" },
        { ...good, kind: "unknown" },
      ],
      errors: [],
    });
    const oneOf = 'must be one of "locker", "counter", "unknown"';
    for (const [kind, message] of [
      ["Locker", oneOf],
      ["parcel_locker", oneOf],
      ["", oneOf],
      [null, `must be string; ${oneOf}`],
      [1, `must be string; ${oneOf}`],
    ] as const) {
      expect(parsePickupPointsJson(JSON.stringify([good, { ...other, kind }]))).toEqual({
        records: [goodRead],
        errors: [{ record: 1, field: "kind", message }],
      });
    }
  });

  it("may be a CSV column, an empty cell leaving it to the carriers", () => {
    const csv = [
      `${header},kind`,
      `${row(good)},`,
      `${row(other)},counter`,
      `${row({ ...other, id: "5a1f0c2e9b8d7a6f5e4d3c2d" })},box`,
    ].join("\n");
    expect(parsePickupPointsCsv(csv)).toEqual({
      records: [goodRead, { ...other, kind: "counter" }],
      errors: [{ line: 4, field: "kind", message: 'must be one of "locker", "counter", "unknown"' }],
    });
  });
});

describe("parseGeoNamesPostalCodes", () => {
  const line = "FI\t00100\tHelsinki\tUusimaa\t01\tHelsinki\t091\t\t\t60.1712\t24.9327\t4";

  it("reads the 12 tab-separated columns", () => {
    expect(parseGeoNamesPostalCodes(line + "\n")).toEqual({
      records: [
        {
          country: "FI",
          postalcode: "00100",
          place_name: "Helsinki",
          admin_name1: "Uusimaa",
          admin_code1: "01",
          admin_name2: "Helsinki",
          admin_code2: "091",
          admin_name3: null,
          admin_code3: null,
          coordinates: [60.1712, 24.9327],
          accuracy: 4,
        },
      ],
      errors: [],
      merged: 0,
    });
  });

  it("round-trips formatGeoNamesLine and accepts an empty or missing accuracy", () => {
    const [record] = parseGeoNamesPostalCodes(line).records;
    expect(formatGeoNamesLine(record!)).toBe(line);
    expect(parseGeoNamesPostalCodes(line.replace(/\t4$/, "\t")).records[0]!.accuracy).toBeNull();
    expect(parseGeoNamesPostalCodes(line.replace(/\t4$/, "")).records[0]!.accuracy).toBeNull();
  });

  it("reports each bad line by number and field, keeping the good ones", () => {
    const text = [
      line, // 1
      "", // 2
      line.replace("00100", "0010"), // 3
      line.replace("FI\t", "fi\t"), // 4
      line.replace("60.1712", "north"), // 5
      line.replace("24.9327", "200"), // 6
      "FI\t00120\tHelsinki", // 7
      line.replace("00100", "00130").replace(/\t4$/, "\t9"), // 8
      line.replace("00100", "00140").replace("\tHelsinki\tUusimaa", "\t\tUusimaa"), // 9
      "SE\t111 22\tStockholm\t\t\t\t\t\t\t59.33\t18.06\t", // 10
    ].join("\r\n");
    const result = parseGeoNamesPostalCodes(text);
    expect(result.records.map((r) => `${r.country} ${r.postalcode}`)).toEqual(["FI 00100", "SE 111 22"]);
    expect(result.errors.map((e) => [e.line, e.field])).toEqual([
      [3, "postalcode"],
      [4, "country"],
      [5, "latitude"],
      [6, "longitude"],
      [7, "line"],
      [8, "accuracy"],
      [9, "place_name"],
    ]);
  });

  it("merges a postal code listed for several places into one location at their mean", () => {
    const text = [
      "FI\t21500\tPiikkiö\t\t\t\t\t\t\t60.42\t22.50\t4",
      "FI\t21500\tHarvaluoto\t\t\t\t\t\t\t60.44\t22.54\t4",
    ].join("\n");
    const result = parseGeoNamesPostalCodes(text);
    expect(result.merged).toBe(1);
    expect(result.records).toHaveLength(1);
    expect(result.records[0]!.place_name).toBe("Piikkiö");
    expect(result.records[0]!.coordinates[0]).toBeCloseTo(60.43, 9);
    expect(result.records[0]!.coordinates[1]).toBeCloseTo(22.52, 9);
  });
});
