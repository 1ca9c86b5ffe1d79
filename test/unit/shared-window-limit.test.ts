// SharedWindowLimit (server/db/counters.ts): every instance's counts meet in the database; each instance adds
// what it took on one connection and reads the totals on another. Seen as a flaky test on PostgreSQL
// (test/http/address-limits.test.ts: a caller refused one request before its share): a read answered after the
// database applied an addition, but before that addition's own answer came back, counted the same points twice.
import { afterEach, describe, expect, it, vi } from "vitest";
import { SharedWindowLimit, warmTogether, type Counted, type WindowCounter } from "../../server/db/counters.ts";

/** A database of totals whose additions apply at once; while `held`, their answers wait for `answer()`. */
function fakeCounter(limit: number) {
  const totals = new Map<string, number>();
  const resetsAt = Date.now() + 60_000;
  const unanswered: (() => void)[] = [];
  const state = { held: true };
  const counter = {
    limit,
    windowSeconds: 60,
    add(key: string, points: number): Promise<Counted> {
      totals.set(key, (totals.get(key) ?? 0) + points);
      const consumed = totals.get(key)!;
      if (!state.held) return Promise.resolve({ consumed, resetsAt });
      return new Promise((resolve) => unanswered.push(() => resolve({ consumed, resetsAt })));
    },
    read(key: string): Promise<Counted | undefined> {
      const consumed = totals.get(key);
      return Promise.resolve(consumed === undefined ? undefined : { consumed, resetsAt });
    },
  };
  return {
    counter: counter as unknown as WindowCounter,
    totals,
    /** Answers the additions held so far, and every later one at once. */
    answer: () => {
      state.held = false;
      unanswered.splice(0).forEach((f) => f());
    },
  };
}

const FLUSH_MS = 20;
const stale = () => new Promise((r) => setTimeout(r, FLUSH_MS * 3));

describe("a shared window limit", () => {
  it("does not count an addition twice when a read sees it before the addition's answer comes back", async () => {
    const db = fakeCounter(2);
    const limit = new SharedWindowLimit(db.counter, undefined, FLUSH_MS);
    expect(await limit.take("caller")).toBe(0);
    const sent = limit.flush(); // applied in the database (1), its answer not back yet
    expect(db.totals.get("caller")).toBe(1);
    await stale(); // the known total is too old to judge by: the next take reads
    expect(await limit.take("caller")).toBe(0); // 1 used of 2: the second fits
    db.answer();
    await sent;
    await limit.flush();
    expect(db.totals.get("caller")).toBe(2);
    await stale();
    expect(await limit.take("caller")).toBeGreaterThan(0); // 2 of 2 used: refused until the window ends
  });

  it("still refuses past the limit while additions are in flight", async () => {
    const db = fakeCounter(2);
    const limit = new SharedWindowLimit(db.counter, undefined, FLUSH_MS);
    expect(await limit.take("caller")).toBe(0);
    expect(await limit.take("caller")).toBe(0);
    const sent = limit.flush(); // both applied, neither answered
    await stale();
    expect(await limit.take("caller")).toBeGreaterThan(0);
    db.answer();
    await sent;
    await stale();
    expect(await limit.take("caller")).toBeGreaterThan(0);
  });

  it("does not take a read made before an addition, answered while it is in flight, as the total less that addition", async () => {
    const db = fakeCounter(10); // additions held until answer()
    db.totals.set("caller", 5); // another instance's
    let answerRead!: () => void;
    const read = db.counter.read.bind(db.counter);
    db.counter.read = (key: string) =>
      read(key).then((c) => new Promise<typeof c>((resolve) => (answerRead = () => resolve(c))));
    const tick = () => new Promise((r) => setImmediate(r));
    const limit = new SharedWindowLimit(db.counter, undefined, FLUSH_MS);
    limit.count("caller", 3);
    const taking = limit.take("caller", 3); // no total known here: read first (5, its answer held)
    await tick();
    const sent = limit.flush(); // the 3 applied (8), not answered
    expect(db.totals.get("caller")).toBe(8);
    answerRead(); // 5: taken as 5 less the 3 in flight, 2 + 3 + 3 let the take in at a true 11 of 10
    await tick();
    db.answer();
    expect(await taking).toBeGreaterThan(0);
    await sent;
    expect(db.totals.get("caller")).toBe(8);
  });

  describe("while the caller's own addition is in flight", () => {
    afterEach(() => void vi.useRealTimers());
    // Date.now() alone is faked: the limit reads the time so, and its flush timer is not needed here.
    const at = (ms: number) => vi.setSystemTime(start + ms);
    let start = 0;
    const INTERVAL = 1000;

    it("judges by the total it knows for one more interval, counting every point of its own, and then waits for the answer", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      start = Date.now();
      const db = fakeCounter(5); // additions held until answer()
      const limit = new SharedWindowLimit(db.counter, undefined, INTERVAL);
      expect(await limit.take("caller")).toBe(0); // read (nothing yet), then 1 taken
      expect(limit.waited).toBe(1);
      expect(limit.takeNow("caller")).toBe(0); // 2
      at(INTERVAL);
      const sent = limit.flush(); // 2 applied, the answer held
      at(INTERVAL + 10); // older than one interval, the addition in flight: judged here, no wait
      expect(limit.takeNow("caller")).toBe(0); // 3
      expect(limit.takeNow("caller")).toBe(0); // 4
      expect(limit.takeNow("caller")).toBe(0); // 5
      expect(limit.takeNow("caller")).toBeGreaterThan(0); // the 2 in flight and the 3 not sent count: refused
      expect(limit.waited).toBe(1);
      at(2 * INTERVAL + 10); // two intervals old: no longer judged without the answer
      expect(limit.takeNow("caller")).toBeUndefined();
      db.answer();
      await sent;
      // The answer is a fresh total: 2 answered + 3 not sent of 5, refused without a wait.
      expect(await limit.take("caller")).toBeGreaterThan(0);
      expect(limit.waited).toBe(1);
    });

    it("still waits for a read when nothing of the caller's is in flight and its total is older than one interval", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      start = Date.now();
      const db = fakeCounter(5);
      db.answer(); // additions answered at once
      const limit = new SharedWindowLimit(db.counter, undefined, INTERVAL);
      expect(await limit.take("caller")).toBe(0);
      await limit.flush();
      db.totals.set("caller", 5); // another instance spent the rest
      at(INTERVAL + 10);
      expect(limit.takeNow("caller")).toBeUndefined();
      expect(await limit.take("caller")).toBeGreaterThan(0);
      expect(limit.waited).toBe(2);
    });
  });

  it("after a pause, reads a caller's totals in all its windows at once: the request waits for one round trip", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const start = Date.now();
      const bodies = fakeCounter(100);
      const answers = fakeCounter(100);
      const strangers = fakeCounter(100);
      for (const db of [bodies, answers, strangers]) db.answer();
      const reads = { bodies: 0, answers: 0, strangers: 0 };
      for (const [name, db] of Object.entries({ bodies, answers, strangers })) {
        const read = db.counter.read.bind(db.counter);
        db.counter.read = (key: string) => {
          reads[name as keyof typeof reads]++;
          return read(key);
        };
      }
      const windows: SharedWindowLimit[] = [];
      for (const db of [bodies, answers, strangers]) {
        windows.push(new SharedWindowLimit(db.counter, undefined, 100));
        warmTogether(windows, windows.at(-1)!);
      }
      const [bodyWindow, answerWindow, strangerWindow] = windows as [
        SharedWindowLimit,
        SharedWindowLimit,
        SharedWindowLimit,
      ];
      expect(await bodyWindow.take("caller")).toBe(0);
      expect(await answerWindow.take("caller")).toBe(0);
      expect(await strangerWindow.take("someone else")).toBe(0);
      await Promise.all(windows.map((w) => w.flush()));
      expect(reads).toEqual({ bodies: 1, answers: 1, strangers: 1 });
      vi.setSystemTime(start + 1000); // a pause: every total is stale
      const taking = bodyWindow.take("caller");
      // The answers window began its read with the bodies window's, before the request reached it; the window that
      // never counted this caller read nothing.
      expect(reads).toEqual({ bodies: 2, answers: 2, strangers: 1 });
      expect(await taking).toBe(0);
      await new Promise((r) => setImmediate(r));
      expect(answerWindow.takeNow("caller")).toBe(0);
      expect(reads).toEqual({ bodies: 2, answers: 2, strangers: 1 });
      expect([bodyWindow.waited, answerWindow.waited]).toEqual([2, 1]);
    } finally {
      vi.useRealTimers();
    }
  });
});
