// What every shipping options answer needs of a merchant: settings and price lists, read in one round trip.
import type { Executor } from "../db/transaction.ts";
import * as q from "./db.ts";
import { priceListToWire, type PriceList } from "./price-lists.ts";
import { settingsToWire, type ShippingSettings } from "./settings.ts";

export interface ShippingConfig {
  settings: ShippingSettings;
  priceLists: PriceList[];
}

export async function loadShippingConfig(db: Executor, merchantId: string): Promise<ShippingConfig> {
  const { settings, lists } = await q.loadConfig(db, merchantId);
  return { settings: settingsToWire(settings), priceLists: lists.map(priceListToWire) };
}

/** Called when a merchant's settings or price lists changed. */
export function forgetConfig(_merchantId: string): void {}
