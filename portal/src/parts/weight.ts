// Weights: the API keeps grams, people type and read kilograms. The one place that knows a kilogram's grams: the
// number is not exported, so a conversion elsewhere cannot use it (and ESLint refuses 1000 and 0.001 in arithmetic
// and constants elsewhere in the portal).
// eslint-disable-next-line no-restricted-syntax -- the one conversion
const GRAMS_PER_KG = 1000;

/** Kilograms of `grams`, to the milligram: no float noise (1234.567 g is 1.234567 kg, whatever the division gives). */
export const kgFromGrams = (grams: number) => Number((grams / GRAMS_PER_KG).toFixed(6));

/** Grams of typed kilograms, to the milligram: no float noise (1.1 kg is 1100 g, not 1100.0000000000002). */
export const gramsFromKg = (kg: number) => Number((kg * GRAMS_PER_KG).toFixed(3));

/** Whole grams of typed kilograms, as the API keeps a weight limit: a fraction of a gram is nobody's intent. */
export const wholeGramsFromKg = (kg: number) => Math.round(kg * GRAMS_PER_KG);
