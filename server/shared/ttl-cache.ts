// Answers kept for a while, with invalidation: the one cache type of the service (the pickup point directory,
// each merchant's shipping configuration). A load that started before a forget is not kept, so a change
// committed while a stale read was in flight is never hidden for a whole time to live.
export class TtlCache<V> {
  private entries = new Map<string, { value: V; until: number; version: string }>();
  /** Bumped by clear(); forget() bumps the key's own. */
  private version = 0;
  private keyVersions = new Map<string, number>();

  /** `ttlMs` 0: no caching at all. */
  constructor(
    readonly ttlMs: number,
    private maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs === 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now && hit.version === this.versionOf(key)) return hit.value;
    const started = this.versionOf(key);
    const value = await load();
    if (this.versionOf(key) === started) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, until: now + this.ttlMs, version: started });
    }
    return value;
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

  private versionOf(key: string): string {
    return `${this.version}:${this.keyVersions.get(key) ?? 0}`;
  }
}
