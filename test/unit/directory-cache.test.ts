import { describe, expect, it, vi } from "vitest";
import { cached, directoryChanged, setDirectoryCacheTtl } from "../../server/pickup-points/cache.ts";

describe("nearest-point cache", () => {
  it("reuses an answer per database and key until its time to live ends or the directory changes", async () => {
    const db = {};
    const other = {};
    let n = 0;
    const load = async () => ++n;
    expect(await cached(db, "FI 20780", load)).toBe(1);
    expect(await cached(db, "FI 20780", load)).toBe(1);
    expect(await cached(db, "FI 00100", load)).toBe(2);
    expect(await cached(other, "FI 20780", load)).toBe(3);
    directoryChanged();
    expect(await cached(db, "FI 20780", load)).toBe(4);
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    try {
      expect(await cached(db, "FI 20780", load)).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not keep an answer read while the directory changed, and is off with a time to live of 0", async () => {
    const db = {};
    let n = 0;
    expect(await cached(db, "k", async () => { directoryChanged(); return ++n; })).toBe(1);
    expect(await cached(db, "k", async () => ++n)).toBe(2);
    setDirectoryCacheTtl(db, 0);
    expect(await cached(db, "k", async () => ++n)).toBe(3);
    expect(await cached(db, "k", async () => ++n)).toBe(4);
  });
});
