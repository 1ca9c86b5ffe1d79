import { describe, expect, it, vi } from "vitest";
import { TtlCache } from "../../server/shared/ttl-cache.ts";

describe("TtlCache (the directory's and the shipping configuration's cache)", () => {
  it("reuses an answer per key until its time to live ends, forget() drops one key and clear() all", async () => {
    const cache = new TtlCache<number>(60_000);
    let n = 0;
    const load = async () => ++n;
    expect(await cache.get("FI 20780", load)).toBe(1);
    expect(await cache.get("FI 20780", load)).toBe(1);
    expect(await cache.get("FI 00100", load)).toBe(2);
    cache.forget("FI 00100");
    expect(await cache.get("FI 20780", load)).toBe(1);
    expect(await cache.get("FI 00100", load)).toBe(3);
    cache.clear();
    expect(await cache.get("FI 20780", load)).toBe(4);
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    try {
      expect(await cache.get("FI 20780", load)).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not keep an answer read while its key was forgotten or the cache cleared, and is off with a time to live of 0", async () => {
    const cache = new TtlCache<number>(60_000);
    let n = 0;
    expect(
      await cache.get("k", async () => {
        cache.forget("k");
        return ++n;
      }),
    ).toBe(1);
    expect(await cache.get("k", async () => ++n)).toBe(2);
    expect(
      await cache.get("j", async () => {
        cache.clear();
        return ++n;
      }),
    ).toBe(3);
    expect(await cache.get("j", async () => ++n)).toBe(4);
    const off = new TtlCache<number>(0);
    expect(await off.get("k", async () => ++n)).toBe(5);
    expect(await off.get("k", async () => ++n)).toBe(6);
  });

  it("stays bounded: past its size it starts afresh", async () => {
    const cache = new TtlCache<number>(60_000, 3);
    let n = 0;
    for (const k of ["a", "b", "c", "d"]) await cache.get(k, async () => ++n);
    expect(await cache.get("a", async () => ++n)).toBe(5);
  });
});
