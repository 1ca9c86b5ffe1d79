// The pace of refusals (issue 25): a caller refused more than a few times a second gets its further 429s after a
// pause, so that a client looping on its refusals cannot make them the flood; other errors, and callers who back
// off, are answered at once. On a clock the test moves.
import { EventEmitter } from "node:events";
import type { Request } from "express";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Res } from "../../server/http/express.ts";
import { paceRefusals, REFUSAL_PACE } from "../../server/http/refusal-pace.ts";
import { AppError } from "../../server/shared/errors.ts";

class FakeRes extends EventEmitter {
  headers: Record<string, string> = {};
  locals: { principal?: { name: string } };
  constructor(name?: string) {
    super();
    this.locals = name ? { principal: { name } } : {};
  }
  setHeader(k: string, v: string) {
    this.headers[k] = v;
  }
}

const limited = () => new AppError("rate_limited", "Too many requests.", [], { "Retry-After": "1" });

function refuse(
  step: ReturnType<typeof paceRefusals>,
  caller: string | undefined,
  err: unknown = limited(),
  ip = "192.0.2.1",
) {
  const res = new FakeRes(caller);
  const r = { res, answered: false, passed: undefined as unknown };
  step(err, { ip } as Request, res as unknown as Res, (e?: unknown) => {
    r.answered = true;
    r.passed = e;
  });
  return r;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the pace of refusals", () => {
  it(`answers a caller's first ${REFUSAL_PACE.burst} refusals in a second at once, the next after ${REFUSAL_PACE.holdMs} ms, unchanged`, () => {
    const step = paceRefusals();
    const burst = Array.from({ length: REFUSAL_PACE.burst }, () => refuse(step, "M-loop"));
    expect(burst.every((r) => r.answered)).toBe(true);
    const held = refuse(step, "M-loop");
    expect(held.answered).toBe(false);
    // Another caller's refusal is not held.
    expect(refuse(step, "M-other").answered).toBe(true);
    vi.advanceTimersByTime(REFUSAL_PACE.holdMs - 1);
    expect(held.answered).toBe(false);
    vi.advanceTimersByTime(1);
    expect(held.answered).toBe(true);
    expect(held.passed).toBeInstanceOf(AppError);
    expect((held.passed as AppError).code).toBe("rate_limited");
    expect(held.res.headers).toEqual({});
  });

  it("starts every second afresh: a caller that backs off is never held", () => {
    const step = paceRefusals();
    for (let s = 0; s < 5; s++) {
      for (let i = 0; i < REFUSAL_PACE.burst; i++) expect(refuse(step, "M-polite").answered).toBe(true);
      vi.advanceTimersByTime(1000);
    }
  });

  it(`holds at most ${REFUSAL_PACE.maxHeld} at once per caller; beyond, the refusal comes at once and closes the connection`, () => {
    const step = paceRefusals();
    for (let i = 0; i < REFUSAL_PACE.burst; i++) refuse(step, "M-many");
    const held = Array.from({ length: REFUSAL_PACE.maxHeld }, () => refuse(step, "M-many"));
    expect(held.some((r) => r.answered)).toBe(false);
    const beyond = refuse(step, "M-many");
    expect(beyond.answered).toBe(true);
    expect(beyond.res.headers).toEqual({ Connection: "close" });
    vi.advanceTimersByTime(REFUSAL_PACE.holdMs);
    expect(held.every((r) => r.answered)).toBe(true);
  });

  it("counts refusals still held from the last second against the bound, and frees their places when answered", () => {
    const step = paceRefusals({ burst: 0, holdMs: 1500, maxHeld: 2 });
    const first = [refuse(step, "M-straddle"), refuse(step, "M-straddle")];
    vi.advanceTimersByTime(1100); // a new second; both still held
    const beyond = refuse(step, "M-straddle");
    expect([beyond.answered, beyond.res.headers]).toEqual([true, { Connection: "close" }]);
    vi.advanceTimersByTime(400);
    expect(first.every((r) => r.answered)).toBe(true);
    const next = refuse(step, "M-straddle");
    expect([next.answered, next.res.headers]).toEqual([false, {}]);
    vi.advanceTimersByTime(1500);
    expect(next.answered).toBe(true);
  });

  it("frees the place of a held refusal whose client went away, and never answers it", () => {
    const step = paceRefusals({ burst: 0, holdMs: 1000, maxHeld: 1 });
    const gone = refuse(step, "M-gone");
    gone.res.emit("close");
    const next = refuse(step, "M-gone");
    expect(next.answered).toBe(false);
    expect(next.res.headers).toEqual({});
    vi.advanceTimersByTime(1000);
    expect(gone.answered).toBe(false);
    expect(next.answered).toBe(true);
  });

  it("passes other errors at once", () => {
    const step = paceRefusals({ burst: 0, holdMs: 1000, maxHeld: 64 });
    const conflict = new AppError("conflict", "Taken.");
    const r = refuse(step, "M-a", conflict);
    expect([r.answered, r.passed]).toEqual([true, conflict]);
    expect(refuse(step, "M-a", new Error("boom")).answered).toBe(true);
  });

  it("paces the refusals of a caller not yet known (the sign-in throttle's, an address's 404s) per client address", () => {
    const step = paceRefusals({ burst: 1, holdMs: 1000, maxHeld: 64 });
    expect(refuse(step, undefined, limited(), "192.0.2.7").answered).toBe(true);
    const held = refuse(step, undefined, limited(), "192.0.2.7");
    expect(held.answered).toBe(false);
    // Another address, and a merchant at the same one, are not held by it.
    expect(refuse(step, undefined, limited(), "192.0.2.8").answered).toBe(true);
    expect(refuse(step, "M-same-address", limited(), "192.0.2.7").answered).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(held.answered).toBe(true);
  });
});
