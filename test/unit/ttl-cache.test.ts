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
    vi.useFakeTimers({ now: Date.now() + 121_000 });
    try {
      // Two times to live past: never served, the request waits for the load.
      expect(await cache.get("FI 20780", load)).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it("fresh() gives at once exactly what get() would serve without a load: nothing expired, forgotten or loading", async () => {
    const cache = new TtlCache<number>(60_000);
    expect(cache.fresh("k")).toBeUndefined();
    let release!: (n: number) => void;
    const loading = cache.get("k", () => new Promise<number>((resolve) => (release = resolve)));
    await Promise.resolve();
    expect(cache.fresh("k")).toBeUndefined();
    release(1);
    expect(await loading).toBe(1);
    expect(cache.fresh("k")).toBe(1);
    cache.forget("k");
    expect(cache.fresh("k")).toBeUndefined();
    expect(await cache.get("k", async () => 2)).toBe(2);
    expect(cache.fresh("k")).toBe(2);
    cache.clear();
    expect(cache.fresh("k")).toBeUndefined();
    expect(await cache.get("k", async () => 3)).toBe(3);
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    try {
      // Past its time to live: get() serves it while it refreshes; fresh() does not, and the caller calls get().
      expect(cache.fresh("k")).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    const uncached = new TtlCache<number>(0);
    expect(await uncached.get("k", async () => 4)).toBe(4);
    expect(uncached.fresh("k")).toBeUndefined();
  });

  it("fresh() never gives an answer whose load began before a forget() or clear()", async () => {
    const cache = new TtlCache<number>(60_000);
    for (const drop of [(c: TtlCache<number>) => c.forget("k"), (c: TtlCache<number>) => c.clear()]) {
      let release!: (n: number) => void;
      const stale = cache.get("k", () => new Promise<number>((resolve) => (release = resolve)));
      await Promise.resolve();
      drop(cache);
      release(9);
      expect(await stale).toBe(9);
      expect(cache.fresh("k")).toBeUndefined();
    }
  });

  it("runs one load for the requests that miss together, and shares its failure", async () => {
    const cache = new TtlCache<number>(60_000);
    let loads = 0;
    let release!: (n: number) => void;
    const slow = () => {
      loads++;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const together = [cache.get("k", slow), cache.get("k", slow), cache.get("k", slow)];
    await Promise.resolve();
    release(7);
    expect(await Promise.all(together)).toEqual([7, 7, 7]);
    expect(loads).toBe(1);
    const failing = () => {
      loads++;
      return Promise.reject(new Error("database down"));
    };
    const failed = await Promise.allSettled([cache.get("f", failing), cache.get("f", failing)]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(loads).toBe(2);
    // Not kept: the next request loads again.
    expect(await cache.get("f", async () => ++loads)).toBe(3);
  });

  it("serves an answer just past its time to live while one refresh runs, then the refreshed one", async () => {
    const cache = new TtlCache<string>(60_000);
    expect(await cache.get("k", async () => "old")).toBe("old");
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ["Date"] });
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    try {
      let loads = 0;
      let release!: (v: string) => void;
      const refresh = () => {
        loads++;
        return new Promise<string>((resolve) => (release = resolve));
      };
      expect(await cache.get("k", refresh)).toBe("old");
      expect(await cache.get("k", refresh)).toBe("old");
      expect(loads).toBe(1);
      release("new");
      await vi.waitFor(async () => expect(await cache.get("k", refresh)).toBe("new"));
      expect(loads).toBe(1);
      // A failed refresh leaves the answer to the next request, which tries again.
      vi.setSystemTime(Date.now() + 61_000);
      expect(await cache.get("k", () => Promise.reject(new Error("down")))).toBe("new");
      await settled();
      expect(await cache.get("k", async () => "newer")).toBe("new");
      await vi.waitFor(async () => expect(await cache.get("k", async () => "never")).toBe("newer"));
    } finally {
      vi.useRealTimers();
    }
  });

  it("never serves a forgotten key or a cleared cache while it reloads", async () => {
    const cache = new TtlCache<string>(60_000);
    await cache.get("k", async () => "old");
    cache.forget("k");
    expect(await cache.get("k", async () => "after forget")).toBe("after forget");
    cache.clear();
    expect(await cache.get("k", async () => "after clear")).toBe("after clear");
    // A load that started before a forget is not joined by the requests after it.
    let release!: (v: string) => void;
    const before = cache.get("j", () => new Promise<string>((resolve) => (release = resolve)));
    await Promise.resolve();
    cache.forget("j");
    const after = cache.get("j", async () => "fresh");
    release("stale");
    expect(await before).toBe("stale");
    expect(await after).toBe("fresh");
    expect(await cache.get("j", async () => "never")).toBe("fresh");
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
