import { expect, it } from "vitest";
import { fromCents, hasAtMostTwoDecimals, roundHalfAwayFromZero, toCents } from "../../server/shared/money.ts";

it.each([
  [0, true],
  [5, true],
  [5.9, true],
  [19.99, true],
  [0.01, true],
  [-3.5, true],
  [100000, true],
  [19.999, false],
  [0.1 + 0.2, false],
  [0.001, false],
  [Number.NaN, false],
  [Number.POSITIVE_INFINITY, false],
])("hasAtMostTwoDecimals(%s) is %s", (x, ok) => {
  expect(hasAtMostTwoDecimals(x)).toBe(ok);
});

it("converts wire amounts to integer cents and back, exactly", () => {
  expect(toCents(19.9)).toBe(1990);
  expect(toCents(1.005)).toBe(101); // 1.005 * 100 is 100.4999... in binary: snapped before rounding
  expect(toCents(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996
  expect(toCents(-4.9)).toBe(-490);
  expect(toCents(0)).toBe(0);
  expect(Object.is(toCents(-0), 0)).toBe(true);
  expect(fromCents(1990)).toBe(19.9);
  expect(fromCents(399)).toBe(3.99);
  expect(fromCents(0)).toBe(0);
  for (let c = 0; c < 100_000; c += 7) expect(toCents(fromCents(c))).toBe(c);
  for (let c = 0; c < 10_000; c += 3) expect(hasAtMostTwoDecimals(fromCents(c))).toBe(true);
});

it("refuses what is not money", () => {
  expect(() => toCents(Number.NaN)).toThrow(RangeError);
  expect(() => fromCents(1.5)).toThrow(RangeError);
});

it("rounds half away from zero", () => {
  expect(roundHalfAwayFromZero(2.5)).toBe(3);
  expect(roundHalfAwayFromZero(3.5)).toBe(4); // not banker's (which gives 4 here and 2 for 2.5)
  expect(roundHalfAwayFromZero(-2.5)).toBe(-3);
  expect(roundHalfAwayFromZero(2.4999)).toBe(2);
  expect(roundHalfAwayFromZero(172.49999999999997)).toBe(173); // 345 * 0.5 computed as 172.5 with float noise
});
