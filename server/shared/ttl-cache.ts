// Answers kept for a while, with invalidation: the one cache type of the service (the pickup point directory,
// each merchant's shipping configuration). A load that started before a forget is not kept, so a change
// committed while a stale read was in flight is never hidden for a whole time to live.
//
// One load per key at a time: the requests that miss together share it, instead of each running the same query
// at the moment an answer expires. An answer less than one more time to live past its own, and not forgotten, is
// still served while one refresh runs, so a key in steady use never makes a request wait at expiry; an older one,
// a forgotten key or a cleared cache is never served.
export class TtlCache<V> {
  private entries = new Map<string, { value: V; until: number; version: string }>();
  private loading = new Map<string, { promise: Promise<V>; version: string }>();
  /** Bumped by clear(); forget() bumps the key's own. */
  private version = 0;
  private keyVersions = new Map<string, number>();

  /** `ttlMs` 0: no caching at all. */
  constructor(
    readonly ttlMs: number,
    private maxEntries = 10_000,
  ) {}

  /**
   * The answer kept for `key` while within its time to live, at once (no promise, no load); undefined otherwise, and
   * then `get` loads it. The hot paths ask this first: a hit costs no promise and no turn of the event loop.
   */
  fresh(key: string): V | undefined {
    if (this.ttlMs === 0) return undefined;
    // An entry is of its key's current version: forget() and clear() remove the entries whose version they move.
    const hit = this.entries.get(key);
    return hit !== undefined && hit.until > Date.now() ? hit.value : undefined;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs === 0) return load();
    const version = this.versionOf(key);
    const hit = this.entries.get(key);
    const current = hit?.version === version ? hit : undefined;
    const now = Date.now();
    if (current && current.until > now) return current.value;
    const pending = this.loading.get(key);
    const flight = pending?.version === version ? pending.promise : this.start(key, version, load);
    if (!current || current.until + this.ttlMs <= now) return flight;
    // Past its time to live: this request keeps the answer; a failed refresh is tried again by the next one.
    flight.catch(() => undefined);
    return current.value;
  }

  forget(key: string): void {
    this.entries.delete(key);
    this.keyVersions.set(key, (this.keyVersions.get(key) ?? 0) + 1);
    // Bounded like the entries: past the bound every key starts afresh under a new global version.
    if (this.keyVersions.size > this.maxEntries) this.clear();
  }

  clear(): void {
    this.entries.clear();
    this.keyVersions.clear();
    this.version++;
  }

  private start(key: string, version: string, load: () => Promise<V>): Promise<V> {
    const flight = { version, promise: undefined as unknown as Promise<V> };
    flight.promise = (async () => {
      try {
        // Never synchronously: the flight is registered before its load can settle.
        const value = await Promise.resolve().then(load);
        if (this.versionOf(key) === version) {
          if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.clear();
          this.entries.set(key, { value, until: Date.now() + this.ttlMs, version });
        }
        return value;
      } finally {
        if (this.loading.get(key) === flight) this.loading.delete(key);
      }
    })();
    this.loading.set(key, flight);
    return flight.promise;
  }

  private versionOf(key: string): string {
    return `${this.version}:${this.keyVersions.get(key) ?? 0}`;
  }
}
