// Nearest-point answers kept for a while: the directory is shared by every merchant, read on every checkout and
// changed rarely (imports). An import in this process forgets every entry; one through another process (the CLI
// against a shared PostgreSQL) is seen within the time to live (PICKUP_POINTS_CACHE_SECONDS, default 60).
const DEFAULT_TTL_MS = 60_000;
const MAX_ENTRIES = 5_000;

interface Cache<V> {
  ttlMs: number;
  entries: Map<string, { value: V; until: number; version: number }>;
}

// Per database handle (tests run apps on different databases in one process); imports bump one version for all.
const caches = new WeakMap<object, Cache<unknown>>();
let version = 0;

const cacheOf = (db: object) => caches.get(db) ?? caches.set(db, { ttlMs: DEFAULT_TTL_MS, entries: new Map() }).get(db)!;

/** How long answers read through `db` are kept; 0 turns the cache off. */
export function setDirectoryCacheTtl(db: object, ttlMs: number): void {
  const cache = cacheOf(db);
  cache.ttlMs = ttlMs;
  cache.entries.clear();
}

/** The directory changed in this process: no entry read before is served again. */
export function directoryChanged(): void {
  version++;
}

export async function cached<V>(db: object, key: string, load: () => Promise<V>): Promise<V> {
  const cache = cacheOf(db) as Cache<V>;
  if (cache.ttlMs === 0) return load();
  const now = Date.now();
  const hit = cache.entries.get(key);
  if (hit && hit.until > now && hit.version === version) return hit.value;
  const started = version;
  const value = await load();
  if (version === started) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(key, { value, until: now + cache.ttlMs, version: started });
  }
  return value;
}
