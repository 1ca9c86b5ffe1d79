// Money is integer cents inside; on the wire a number with at most two decimals.

/** Rounds half away from zero (commercial rounding: 0.5 -> 1, -0.5 -> -1), after snapping off float noise. */
export function roundHalfAwayFromZero(x: number): number {
  // 1.005 * 100 is 100.49999999999999 in binary: snap to 1e-6 first so that such values round as written.
  const snapped = Math.round(Math.abs(x) * 1e6) / 1e6;
  return Math.sign(x) * Math.floor(snapped + 0.5) + 0; // + 0 turns -0 into 0
}

/** Whether a wire amount is a finite number with at most two decimals (19.9 yes, 19.999 and 0.1 + 0.2 no). */
export function hasAtMostTwoDecimals(x: number): boolean {
  return Number.isFinite(x) && Math.abs(x) < 1e15 && Number(x.toFixed(2)) === x;
}

/** Wire amount -> integer cents, rounding to the nearest cent (half away from zero). Check the input first. */
export function toCents(amount: number): number {
  if (!Number.isFinite(amount)) throw new RangeError(`not a finite amount: ${amount}`);
  return roundHalfAwayFromZero(amount * 100);
}

/** Integer cents -> wire amount (399 -> 3.99); the result prints with at most two decimals. */
export function fromCents(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  return cents / 100 + 0;
}
