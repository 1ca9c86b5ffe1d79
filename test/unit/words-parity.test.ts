// Every words catalogue says the same things in each of its languages: the portal's (with the station's words and
// the pages' own), and the checkout picker's. A key one language has and another lacks fails here, by its path, as
// does a sentence in one language that is a function (it takes a number or a name) and plain text in another.
import { describe, expect, it } from "vitest";
import { TEXTS } from "../../client/picker/texts.ts";
import { MAP_TEXTS, SWITCH_TEXTS } from "../../client/picker/map-texts.ts";
import { CATALOGUES, LANGS } from "../../portal/src/words/index.ts";

/** Each leaf's path and kind: "station.unsent: function", "statuses.en_route: string". */
function shapeOf(value: unknown, at = ""): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (v: unknown, path: string) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0) out.set(path, "empty object");
      for (const k of keys) visit((v as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
    } else out.set(path, Array.isArray(v) ? "array" : typeof v);
  };
  visit(value, at);
  return out;
}

/** What `other` lacks of `base`, has beyond it, or has of another kind, as lines to read. */
function differences(base: Map<string, string>, other: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [k, kind] of base) {
    if (!other.has(k)) lines.push(`lacks ${k}`);
    else if (other.get(k) !== kind) lines.push(`${k} is a ${other.get(k)}, not a ${kind}`);
  }
  for (const k of other.keys()) if (!base.has(k)) lines.push(`has ${k} that the other lacks`);
  return lines;
}

/** Every pair of languages compared both ways, so that a key only one language has is named wherever it is. */
function parity(catalogues: Record<string, unknown>): Record<string, string[]> {
  const shapes = Object.entries(catalogues).map(([lang, c]) => [lang, shapeOf(c)] as const);
  const out: Record<string, string[]> = {};
  for (const [a, sa] of shapes) for (const [b, sb] of shapes) if (a < b) out[`${b} against ${a}`] = differences(sa, sb);
  return out;
}

const noDifferences = (catalogues: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(parity(catalogues)).map((k) => [k, []]));

describe("every words catalogue has the same keys in each language", () => {
  it("the portal's (its pages' words and the station's with them)", () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LANGS].sort());
    const found = parity(CATALOGUES);
    expect(found).toEqual(noDifferences(CATALOGUES));
    // Not an empty comparison: the catalogue is hundreds of words deep, the station's among them.
    const en = shapeOf(CATALOGUES.en);
    expect(en.size).toBeGreaterThan(300);
    expect(en.get("station.unsent")).toBe("function");
  });

  it("the checkout picker's", () => {
    expect(Object.keys(TEXTS).sort()).toEqual(["en", "fi", "sv"]);
    expect(parity(TEXTS)).toEqual(noDifferences(TEXTS));
    expect(shapeOf(TEXTS.en).get("found")).toBe("function");
  });

  it("the checkout picker's map's (its switch in picker.js, the map in picker-map.js)", () => {
    for (const catalogue of [SWITCH_TEXTS, MAP_TEXTS]) {
      expect(Object.keys(catalogue).sort()).toEqual(["en", "fi", "sv"]);
      expect(parity(catalogue)).toEqual(noDifferences(catalogue));
    }
    expect(shapeOf(MAP_TEXTS.en).get("zoomIn")).toBe("string");
  });

  it("and the comparison names a key one language lacks, one it has alone, and one of another kind", () => {
    const en = { a: "A", b: { c: "C", d: (n: number) => `${n}` } };
    const fi = { a: "A", b: { d: "D", e: "E" } };
    expect(parity({ en, fi })).toEqual({
      "fi against en": ["lacks b.c", "b.d is a string, not a function", "has b.e that the other lacks"],
    });
    expect(parity({ en, fi: en, sv: { a: "A" } })).toEqual({
      "fi against en": [],
      "sv against en": ["lacks b.c", "lacks b.d"],
      "sv against fi": ["lacks b.c", "lacks b.d"],
    });
  });
});
