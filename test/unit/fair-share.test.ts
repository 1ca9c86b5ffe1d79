// The fair share of the event loop (issue 25): alone, a caller runs as many requests as its limits allow; while
// another caller is active, a few at a time, its expensive ones one at a time and spaced out; the rest wait their
// turn and run as turns come. Requests here are stand-ins the test ends itself, on a clock it moves, so every
// step is deterministic. (npm run bench:neighbours measures the effect on a real server.)
import { EventEmitter } from "node:events";
import type { NextFunction, Request } from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FAIR_SHARE, fairShare } from "../../server/http/fair-share.ts";
import type { Res } from "../../server/http/express.ts";

class FakeRes extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  locals: { principal: { name: string } };
  constructor(name: string) {
    super();
    this.locals = { principal: { name } };
  }
  end() {
    this.writableEnded = true;
    this.emit("close");
  }
  abort() {
    this.destroyed = true;
    this.emit("close");
  }
}

type Gate = ReturnType<typeof fairShare>;
// A share of 2, so that each step below is short; the server's own is FAIR_SHARE.share.
const TWO = { ...FAIR_SHARE, share: 2 };

/** One request through the gate: `started` once the gate lets it on. */
function send(gate: Gate, caller: string, kind: "read" | "explain" | "preview" | "large" = "read") {
  const req = {
    path: kind === "preview" ? "/shipping_options/_preview" : "/shipping_options",
    query: kind === "explain" ? { explain: true } : {},
    headers: kind === "large" ? { "content-length": "20000" } : {},
  } as unknown as Request;
  const res = new FakeRes(caller);
  const r = { res, started: false };
  gate(req, res as unknown as Res, (() => (r.started = true)) as NextFunction);
  return r;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the fair share", () => {
  it("alone, a caller runs every request at once, expensive ones too", () => {
    const gate = fairShare(TWO);
    const reads = Array.from({ length: 10 }, () => send(gate, "M-a"));
    const explains = Array.from({ length: 3 }, () => send(gate, "M-a", "explain"));
    expect([...reads, ...explains].every((r) => r.started)).toBe(true);
  });

  it(`while another caller is active, a caller runs its share (here 2; the server's ${FAIR_SHARE.share}) at a time; the others wait and run in order as turns come`, () => {
    const gate = fairShare(TWO);
    send(gate, "M-quiet").res.end();
    const mine = Array.from({ length: 5 }, () => send(gate, "M-busy"));
    expect(mine.map((r) => r.started)).toEqual([true, true, false, false, false]);
    // The other caller is never held back by them.
    expect(send(gate, "M-quiet").started).toBe(true);
    mine[0]!.res.end();
    expect(mine.map((r) => r.started)).toEqual([true, true, true, false, false]);
    mine[1]!.res.end();
    mine[2]!.res.end();
    expect(mine.every((r) => r.started)).toBe(true);
  });

  it("counts another caller as active for a second after its last request", () => {
    const gate = fairShare(TWO);
    send(gate, "M-quiet").res.end();
    vi.advanceTimersByTime(FAIR_SHARE.activeMs - 10);
    expect(Array.from({ length: 3 }, () => send(gate, "M-busy")).map((r) => r.started)).toEqual([true, true, false]);
    vi.advanceTimersByTime(20);
    expect(send(gate, "M-busy").started).toBe(true);
  });

  it("counts a caller with a request still running as active however long ago it started", () => {
    const gate = fairShare(TWO);
    send(gate, "M-slow"); // never ends in this test
    vi.advanceTimersByTime(60_000);
    expect(Array.from({ length: 3 }, () => send(gate, "M-busy")).map((r) => r.started)).toEqual([true, true, false]);
  });

  it("runs expensive requests (explain, previews, large bodies) one at a time, each next one after twice the last one's time", () => {
    const gate = fairShare(TWO);
    send(gate, "M-quiet"); // running: active throughout
    const first = send(gate, "M-busy", "explain");
    const preview = send(gate, "M-busy", "preview");
    const large = send(gate, "M-busy", "large");
    expect([first.started, preview.started, large.started]).toEqual([true, false, false]);
    // A cheap request of the same caller does not wait behind them.
    expect(send(gate, "M-busy").started).toBe(true);
    vi.advanceTimersByTime(50);
    first.res.end();
    expect(preview.started).toBe(false);
    vi.advanceTimersByTime(99);
    expect(preview.started).toBe(false);
    vi.advanceTimersByTime(1);
    expect([preview.started, large.started]).toEqual([true, false]);
    // The spacing is at most a second, however long the last one took.
    vi.advanceTimersByTime(5_000);
    preview.res.end();
    vi.advanceTimersByTime(999);
    expect(large.started).toBe(false);
    vi.advanceTimersByTime(1);
    expect(large.started).toBe(true);
  });

  it("charges a caller for the loop's busy time its running requests shared, and holds it past its part of the last second until that part decays", () => {
    let busy = 0;
    const gate = fairShare({ ...FAIR_SHARE, share: 100, loopBusyMs: () => busy });
    const quiet = send(gate, "M-quiet"); // running throughout: others are active
    // Cheap requests, each taking 1 ms of the loop: 20 ms ticks, each with 18 of the busy caller's requests
    // running and the quiet one's, so the busy caller is charged 18/19 of each tick's busy time.
    const started: boolean[] = [];
    for (let t = 0; t < 60; t++) {
      const batch = Array.from({ length: 18 }, () => send(gate, "M-busy"));
      started.push(...batch.map((r) => r.started));
      busy += 19;
      vi.advanceTimersByTime(20);
      // Those held back are given up (their clients went away), so that each tick starts afresh.
      for (const r of batch)
        if (r.started) r.res.end();
        else r.res.abort();
    }
    // It ran until it had had 40% of a second (~400 ms, decaying), then waited: far fewer started later on.
    const early = started.slice(0, 18 * 20).filter(Boolean).length;
    const late = started.slice(18 * 40).filter(Boolean).length;
    expect(early).toBe(18 * 20);
    expect(late).toBeLessThan(18 * 20 * 0.6);
    // Meanwhile the quiet caller's next request starts at once.
    quiet.res.end();
    expect(send(gate, "M-quiet").started).toBe(true);
    // With the loop idle, its charge decays, and its waiting requests start.
    const held = send(gate, "M-busy");
    vi.advanceTimersByTime(3_000);
    expect(held.started).toBe(true);
  });

  it("charges nothing to a caller alone: it is never held for loop time", () => {
    let busy = 0;
    const gate = fairShare({ ...FAIR_SHARE, share: 100, loopBusyMs: () => busy });
    for (let t = 0; t < 100; t++) {
      const batch = Array.from({ length: 10 }, () => send(gate, "M-alone"));
      expect(batch.every((r) => r.started)).toBe(true);
      busy += 20;
      vi.advanceTimersByTime(20);
      for (const r of batch) r.res.end();
    }
  });

  it("forgets a waiting request whose client went away: it never runs and takes no turn", () => {
    const gate = fairShare(TWO);
    send(gate, "M-quiet");
    const mine = Array.from({ length: 4 }, () => send(gate, "M-busy"));
    mine[2]!.res.abort();
    mine[0]!.res.end();
    expect(mine.map((r) => r.started)).toEqual([true, true, false, true]);
  });

  it("lets a thousand callers one after another each run at once, and treats a late one as any other", () => {
    const gate = fairShare(TWO);
    send(gate, "M-quiet");
    for (let i = 0; i < 1000; i++) {
      const r = send(gate, `M-${i}`);
      expect(r.started).toBe(true);
      r.res.end();
    }
    const after = Array.from({ length: 3 }, () => send(gate, "M-late"));
    expect(after.map((r) => r.started)).toEqual([true, true, false]);
  });
});
