// The portal's one kg <-> g conversion (portal/src/parts/weight.ts): the API keeps grams, people type and read
// kilograms; the pricing editor's rule values, the settings' limits, the preview's weight and the words' "1.25 kg"
// all go through it. Its number is not exported, so a second conversion cannot be built on it (a type error), and
// ESLint refuses 1000 and 0.001 in arithmetic elsewhere (portal-lint-rules.test.ts).
import { describe, expect, it } from "vitest";
import * as weight from "../../portal/src/parts/weight.ts";
import { gramsFromKg, kgFromGrams, wholeGramsFromKg } from "../../portal/src/parts/weight.ts";

describe("the portal's kg <-> g conversion", () => {
  it("turns typed kilograms into grams to the milligram, without float noise", () => {
    expect(gramsFromKg(1.1)).toBe(1100);
    expect(gramsFromKg(1.2)).toBe(1200);
    expect(gramsFromKg(0.0005)).toBe(0.5);
    expect(gramsFromKg(1.2345678)).toBe(1234.568);
    expect(wholeGramsFromKg(1.2345)).toBe(1235);
  });

  it("reads grams back as the kilograms a person typed, for every milligram value tried", () => {
    expect(kgFromGrams(4350)).toBe(4.35);
    expect(kgFromGrams(1234.567)).toBe(1.234567);
    const wrong: string[] = [];
    for (let i = 0; i < 30_000; i += 1) {
      const grams = Number((i * 0.667).toFixed(3));
      const kg = kgFromGrams(grams);
      if (gramsFromKg(kg) !== grams || !/^\d+(\.\d{1,6})?$/.test(String(kg))) wrong.push(`${grams} g: ${kg} kg`);
    }
    expect(wrong).toEqual([]);
  });

  it("keeps the number of grams in a kilogram to itself", () => {
    expect(Object.keys(weight).sort()).toEqual(["gramsFromKg", "kgFromGrams", "wholeGramsFromKg"]);
  });
});
