// What every shipping options answer needs of a merchant: settings and price lists, read in one round trip and
// kept for a second. A write forgets the merchant's entry here once committed (http.ts) and announces itself
// to the other instances on the database (db/cache-signal.ts), which forget theirs at its commit.
import type { Db } from "../db/database.ts";
import type { Executor } from "../db/transaction.ts";
import type { TtlCache } from "../shared/ttl-cache.ts";
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

/** The merchant's configuration when `cache` has it fresh, at once; else undefined (then `shippingConfig`). */
export const freshShippingConfig = (cache: TtlCache<ShippingConfig>, merchantId: string): ShippingConfig | undefined =>
  cache.fresh(merchantId);

/** The merchant's configuration, from `cache` when it is fresh (1 s; changes forget it at once). */
export function shippingConfig(db: Db, cache: TtlCache<ShippingConfig>, merchantId: string): Promise<ShippingConfig> {
  return cache.get(merchantId, () => loadShippingConfig(db, merchantId));
}
