// What every shipping options answer needs of a merchant: settings and price lists, read in one round trip and
// kept for a second. Writes through this process forget the merchant's entry once committed (http.ts); a write
// through another process sharing the database is seen within CACHE_TTL_MS.
import type { Db } from "../db/database.ts";
import type { Executor } from "../db/transaction.ts";
import * as q from "./db.ts";
import { priceListToWire, type PriceList } from "./price-lists.ts";
import { settingsToWire, type ShippingSettings } from "./settings.ts";

export interface ShippingConfig {
  settings: ShippingSettings;
  priceLists: PriceList[];
}

export const CACHE_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

export async function loadShippingConfig(db: Executor, merchantId: string): Promise<ShippingConfig> {
  const { settings, lists } = await q.loadConfig(db, merchantId);
  return { settings: settingsToWire(settings), priceLists: lists.map(priceListToWire) };
}

interface Cache {
  entries: Map<string, { config: ShippingConfig; until: number }>;
  /** Bumped by every forget: a load that started before it is not kept. */
  versions: Map<string, number>;
}
// Per database handle: tests run several apps, on different databases, in one process.
const caches = new WeakMap<Db, Cache>();
const cacheOf = (db: Db) => caches.get(db) ?? caches.set(db, { entries: new Map(), versions: new Map() }).get(db)!;

/** The merchant's configuration, from the cache when it is fresh. */
export async function shippingConfig(db: Db, merchantId: string): Promise<ShippingConfig> {
  const cache = cacheOf(db);
  const hit = cache.entries.get(merchantId);
  const now = Date.now();
  if (hit && hit.until > now) return hit.config;
  const version = cache.versions.get(merchantId) ?? 0;
  const config = await loadShippingConfig(db, merchantId);
  if ((cache.versions.get(merchantId) ?? 0) === version) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(merchantId, { config, until: now + CACHE_TTL_MS });
  }
  return config;
}

/** After a committed (or failed) change to a merchant's settings or price lists. */
export function forgetConfig(db: Db, merchantId: string): void {
  const cache = cacheOf(db);
  cache.entries.delete(merchantId);
  cache.versions.set(merchantId, (cache.versions.get(merchantId) ?? 0) + 1);
}
