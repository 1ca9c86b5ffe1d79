// The lanes of key derivations (issue 25): a flood in one lane, the anonymous one above all, neither delays
// another lane's work beyond the next free slot nor makes it overflow. Tasks here are promises the test
// settles itself, so every step is deterministic.
import { describe, expect, it } from "vitest";
import { ANONYMOUS_LANE, DerivationQueue } from "../../server/accounts/derivations.ts";
import { AppError } from "../../server/shared/errors.ts";

/** A task that starts when the queue runs it and ends when the test says so. */
function gate() {
  let started = false;
  let finish!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve("done");
    fail = reject;
  });
  return {
    task: () => {
      started = true;
      return done;
    },
    get started() {
      return started;
    },
    finish,
    fail,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("derivation lanes", () => {
  it("a merchant's derivation starts at once while the anonymous lane is full, and the anonymous overflow is 503 with Retry-After", async () => {
    const q = new DerivationQueue(2, 4, 1);
    const anon = Array.from({ length: 5 }, () => gate());
    const anonRuns = anon.map((g) => q.run(ANONYMOUS_LANE, g.task));
    await tick();
    // One anonymous derivation runs (its share), four wait (the bound).
    expect(anon.map((g) => g.started)).toEqual([true, false, false, false, false]);
    expect(q.load(ANONYMOUS_LANE)).toEqual({ waiting: 4, running: 1 });
    const over = await refusal(q.run(ANONYMOUS_LANE, () => Promise.resolve("never")));
    expect(over.code).toBe("unavailable");
    expect(over.headers).toEqual({ "Retry-After": "1" });

    const merchant = gate();
    const merchantRun = q.run("merchant:shop.example.com", merchant.task);
    await tick();
    expect(merchant.started).toBe(true);
    merchant.finish();
    await expect(merchantRun).resolves.toBe("done");
    // The anonymous lane was neither served in the merchant's stead nor emptied.
    expect(q.load(ANONYMOUS_LANE)).toEqual({ waiting: 4, running: 1 });

    for (const g of anon) {
      g.finish();
      await tick();
    }
    await expect(Promise.all(anonRuns)).resolves.toHaveLength(5);
    expect(q.load(ANONYMOUS_LANE)).toEqual({ waiting: 0, running: 0 });
  });

  it("a merchant's derivation waits for one slot at most behind a flooded merchant lane: the next free slot is its turn", async () => {
    const q = new DerivationQueue(2, 8, 1);
    const flood = Array.from({ length: 6 }, () => gate());
    const floodRuns = flood.map((g) => q.run("merchant:flooded.example.com", g.task));
    await tick();
    // A merchant lane alone may use both slots.
    expect(flood.filter((g) => g.started)).toHaveLength(2);
    const other = gate();
    const otherRun = q.run("merchant:other.example.com", other.task);
    await tick();
    expect(other.started).toBe(false);
    flood[0]!.finish();
    await tick();
    expect(other.started).toBe(true);
    expect(flood.filter((g) => g.started)).toHaveLength(2);
    other.finish();
    await otherRun;
    for (const g of flood) g.finish();
    await Promise.all(floodRuns);
  });

  it("a full lane refuses only its own callers; the other lanes still queue", async () => {
    const q = new DerivationQueue(2, 2, 1);
    const gates = Array.from({ length: 4 }, () => gate());
    const runs = gates.map((g) => q.run("merchant:a.example.com", g.task));
    await tick();
    expect(q.load("merchant:a.example.com")).toEqual({ waiting: 2, running: 2 });
    expect((await refusal(q.run("merchant:a.example.com", () => Promise.resolve("x")))).code).toBe("unavailable");
    const b = q.run("merchant:b.example.com", () => Promise.resolve("b"));
    const anon = q.run(ANONYMOUS_LANE, () => Promise.resolve("anonymous"));
    expect(q.load("merchant:b.example.com").waiting).toBe(1);
    gates[0]!.finish();
    gates[1]!.finish();
    await expect(b).resolves.toBe("b");
    await expect(anon).resolves.toBe("anonymous");
    for (const g of gates) g.finish();
    await Promise.all(runs);
  });

  it("a failed or throwing task gives its slot back, and an idle lane is forgotten", async () => {
    const q = new DerivationQueue(1, 2, 1);
    const failing = gate();
    const failed = q.run("merchant:a.example.com", failing.task);
    const throwing = q.run("merchant:a.example.com", () => {
      throw new Error("sync");
    });
    const next = q.run("merchant:b.example.com", () => Promise.resolve("b"));
    failing.fail(new Error("async"));
    await expect(failed).rejects.toThrow("async");
    await expect(next).resolves.toBe("b");
    await expect(throwing).rejects.toThrow("sync");
    expect(q.load("merchant:a.example.com")).toEqual({ waiting: 0, running: 0 });
    expect(q.started).toBe(3);
    await expect(q.run("merchant:a.example.com", () => Promise.resolve("again"))).resolves.toBe("again");
  });
});
