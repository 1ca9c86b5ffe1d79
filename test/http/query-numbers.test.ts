// Numeric query parameters take decimal literals only: nothing is reinterpreted as another number.
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
let m: LogisticsClient;
useTestServer(async (s) => {
  srv = s;
  m = await srv.merchant();
});

// The raw query string reaches the server as written: the typed client's types would refuse these values.
const get = (_path: "/shipping_options", query: string) =>
  m.GET("/shipping_options", { params: { query: { postalcode: "20780" } }, querySerializer: () => query });

describe("strict query numbers", () => {
  it.each([
    "Infinity",
    "-Infinity",
    "1e309",
    "1e3",
    "0x10",
    "0b11",
    "0o7",
    "%20",
    "+5",
    ".5",
    "5.",
    "1_000",
    "NaN",
    "12,5",
  ])("weight=%s is 400 validation_failed naming /query/weight, and changes nothing", async (value) => {
    const r = await expectUnchanged(srv, () => get("/shipping_options", `postalcode=20780&weight=${value}`));
    expectError(r, 400, "validation_failed", ["/query/weight"]);
  });

  it("a blank weight is refused, not read as a known 0 g", async () => {
    expectError(await get("/shipping_options", "postalcode=20780&weight="), 400, "validation_failed", [
      "/query/weight",
    ]);
  });

  it.each(["0x10", "1e1", "10.0", "Infinity", " 10"])(
    "limit=%s (a whole number parameter) is 400 naming /query/limit",
    async (value) => {
      const r = await m.GET("/inbound_shipments", { querySerializer: () => `limit=${encodeURIComponent(value)}` });
      expectError(r, 400, "validation_failed", ["/query/limit"]);
    },
  );

  it("decimal literals are accepted as they read", async () => {
    for (const weight of ["0", "350", "12.5", "999999.25"]) {
      const r = await get("/shipping_options", `postalcode=20780&weight=${weight}`);
      expect(r.response.status, weight).toBe(200);
      expect((r.data as { facts: Record<string, unknown> }).facts["order.total_weight"]).toBe(Number(weight));
    }
    const over = await get("/shipping_options", "postalcode=20780&weight=1000001");
    expectError(over, 400, "validation_failed", ["/query/weight"]);
    expect((await m.GET("/inbound_shipments", { params: { query: { limit: 10 } } })).response.status).toBe(200);
  });
});

describe("strict country codes in queries", () => {
  it.each(["XX", "ZZ", "fi", "FIN"])("country=%s is 400 validation_failed naming /query/country", async (country) => {
    expectError(await get("/shipping_options", `postalcode=20780&country=${country}`), 400, "validation_failed", [
      "/query/country",
    ]);
  });
});

describe("the code lists", () => {
  it("the spec's country and currency enums are the ISO lists of today (npm run generate:codes)", async () => {
    const { specFiles, withCodes } = await import("../../tools/spec-codes.ts");
    const { readFileSync } = await import("node:fs");
    const files = specFiles();
    const texts = files.map((f) => readFileSync(f, "utf8"));
    for (const [i, text] of texts.entries())
      expect(withCodes(text) === text, `run npm run generate:codes (${files[i]})`).toBe(true);
    const spec = texts.join("\n");
    expect(spec.match(/# iso-3166-1-alpha-2$/gm)?.length).toBe(2);
    expect(spec.match(/# iso-4217$/gm)?.length).toBe(1);
  });
});
