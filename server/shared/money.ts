// Money is integer cents inside; on the wire a number with at most two decimals.

/** Not multipleOf in the spec: JSON Schema's float arithmetic rejects prices such as 19.99. */
export const hasAtMostTwoDecimals = (x: number): boolean => Math.abs(x * 100 - Math.round(x * 100)) < 1e-6;

export const toCents = (amount: number): number => Math.round(amount * 100);

export const fromCents = (cents: number): number => cents / 100;
