// Fixtures for shipping options, pickup points, price lists and orders.
import { expect } from "vitest";
import type { components, LogisticsClient, operations } from "../../client/index.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { loadDemoDirectory } from "../../server/pickup-points/demo.ts";
import { importPickupPoints, importPostalCodes } from "../../server/pickup-points/imports.ts";
import type { TestServer } from "./server.ts";

type S = components["schemas"];

/** The demo directory shipped with the project: points around Kaarina 20780, Turku, Tampere and central Helsinki. */
export async function loadDemo(srv: TestServer): Promise<void> {
  await inTransaction(srv.handle.db, (trx) => loadDemoDirectory(trx));
}

/**
 * Imports here write to the database directly, as the CLI does from another process: the server hears of them
 * by NOTIFY, a few milliseconds after the commit (tested in cache-invalidation.test.ts). A lookup sent at once
 * could beat that notification, so the helpers forget the cached answers themselves.
 */
function settled(srv: TestServer): void {
  srv.caches.directory.clear();
  srv.caches.shippingConfig.clear();
}

export async function importPoints(srv: TestServer, points: S["PickupPoint"][]): Promise<void> {
  const r = await inTransaction(srv.handle.db, (trx) =>
    importPickupPoints(trx, JSON.stringify(points), { format: "json" }),
  );
  settled(srv);
  expect(r.errors).toEqual([]);
}

export async function importCodes(srv: TestServer, lines: string[]): Promise<void> {
  const r = await inTransaction(srv.handle.db, (trx) => importPostalCodes(trx, lines.join("\n")));
  settled(srv);
  expect(r.errors).toEqual([]);
}

/** A GeoNames line: country, postal code, place, admin fields, latitude, longitude, accuracy. */
export const geonames = (country: string, code: string, lat: number, lon: number, place = "Place") =>
  [country, code, place, "", "", "", "", "", "", lat, lon, 4].join("\t");

let seq = 0;
/** A directory point with a unique id; override what the test is about. */
export const point = (over: Partial<S["PickupPoint"]> = {}): S["PickupPoint"] => ({
  id: (0xabc000000000 + ++seq).toString(16).padStart(24, "0"),
  name: "Test point",
  address: "Testikatu 1",
  postalcode: "20780",
  city: "KAARINA",
  country: "FI",
  coordinates: [60.4, 22.4],
  branch: "fi.posti",
  location_info: null,
  carrier_info: { fi_posti: { id: String(seq) } },
  kind: "unknown",
  ...over,
});

export const SETTINGS: S["ShippingSettingsInput"] = {
  letter: { enabled: true, max_weight_g: 2000 },
  home: { enabled: true },
  pickup: { enabled: true },
  countries: ["FI"],
};

export const list = (
  method: S["ShippingMethodType"],
  over: Partial<S["PriceListInput"]> = {},
): S["PriceListInput"] => ({
  name: `${method} prices`,
  method,
  currency: "EUR",
  tax: 25.5,
  fallback_price: { letter: 2.9, home: 5.9, pickup: 4.9 }[method],
  pricing_rules: [],
  modification_rules: [],
  ...over,
});

export async function configure(
  m: LogisticsClient,
  settings: S["ShippingSettingsInput"],
  lists: S["PriceListInput"][],
): Promise<S["PriceList"][]> {
  const put = await m.PUT("/merchant/shipping_settings", { body: settings });
  expect(put.response.status).toBe(200);
  const created: S["PriceList"][] = [];
  for (const body of lists) {
    const r = await m.POST("/merchant/price_lists/_create", { body });
    expect(r.response.status, JSON.stringify(r.error)).toBe(201);
    created.push(r.data!);
  }
  return created;
}

export async function shippingOptions(
  m: LogisticsClient,
  query: operations["getShippingOptions"]["parameters"]["query"],
) {
  const r = await m.GET("/shipping_options", { params: { query } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return r.data!;
}

export const orderLine = (over: Partial<S["OrderLine"]> = {}): S["OrderLine"] => ({
  merchants_id: "SKU-1",
  name: "Blue T-shirt M",
  qty: 1,
  unit_price: 19.9,
  weight_g: 210,
  ...over,
});

export const order = (over: Partial<S["OrderCreate"]> = {}): S["OrderCreate"] => ({
  merchants_ref: "ORD-1",
  customer: { postalcode: "20780", country: "FI" },
  products: [orderLine()],
  ...over,
});

export async function createOrder(m: LogisticsClient, body: S["OrderCreate"] = order()): Promise<string> {
  const r = await m.POST("/orders/_create", { body });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  return r.data!.order_id;
}

/** Pickup points of an answer, in answer order. */
export function pickupPoints(options: { pickup: { available: boolean } }): S["PickupPointWithPrice"][] {
  expect(options.pickup.available).toBe(true);
  return Object.values(
    (options.pickup as unknown as { pickup_points: Record<string, S["PickupPointWithPrice"]> }).pickup_points,
  );
}
