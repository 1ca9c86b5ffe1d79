// docs/station.md quotes what the station says (its refusals, the finishing screen's differences, the signed-out
// line) and names its buttons and fields in bold: each quote is the English catalogue's words, so that a changed
// sentence in the station fails here until the page says it too. Every section the page links to exists.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUES } from "../../portal/src/words/index.ts";

const page = readFileSync(path.resolve(import.meta.dirname, "../../docs/station.md"), "utf8");
const prose = page.replace(/```[\s\S]*?```/g, "");
const s = CATALOGUES.en.station;

/** Every sentence the station can show in English: its plain words, and its sentences made with the page's examples. */
const shown: string[] = [
  ...Object.values(s).filter((v): v is string => typeof v === "string"),
  ...Object.values(s.refusal),
  s.sessionEnded(1),
  s.notSentYet(3),
  s.noMatch("SKU-1"),
  s.ofExpected(7, 10),
  s.difference("Blue T-shirt M", 8, 10),
  s.difference("Red hoodie L", 5, 4),
];

describe("docs/station.md", () => {
  it('says the station\'s sentences as the station does ("..." marks a quote cut short)', () => {
    const quotes = [...prose.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.replace(/\s+/g, " "));
    expect(quotes.length).toBeGreaterThan(8);
    for (const q of quotes) {
      const cut = q.endsWith("...");
      const text = cut ? q.slice(0, -3) : q;
      expect(
        shown.some((line) => (cut ? line.startsWith(text) : line === text)),
        `"${q}" is not what the station says`,
      ).toBe(true);
    }
  });

  it("names the station's buttons, fields and titles as they are", () => {
    // Bold words are the station's labels ("**Finish receiving**"), except the page's own lead-ins of a paragraph or
    // an item: those ending with a full stop ("**Cartons.**") and these.
    const leadIns = new Set([
      "A temporary password",
      "Wrong email or password",
      "With a handheld scanner (keyboard wedge)",
      "With the phone's camera",
      "By hand",
      "Without differences",
      "With differences",
    ]);
    const labels = [...prose.matchAll(/\*\*([^*]+)\*\*/g)]
      .map((m) => m[1]!.replace(/\s+/g, " "))
      .filter((l) => !l.endsWith(".") && !l.startsWith('"') && !leadIns.has(l)); // a quote: the test above
    expect(labels.length).toBeGreaterThan(15);
    for (const label of labels)
      expect(
        shown.some(
          (line) =>
            line === label ||
            (/^[ .:]/.test(line.slice(label.length)) && line.startsWith(label)) ||
            line.endsWith(` ${label}`),
        ),
        `**${label}** is not a label of the station`,
      ).toBe(true);
  });

  it("links only to sections it has", () => {
    const anchors = new Set(
      [...page.matchAll(/^#+ (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\w\s-]/g, "")
          .replace(/\s+/g, "-"),
      ),
    );
    for (const [, anchor] of page.matchAll(/\]\(#([^)]+)\)/g)) expect(anchors, anchor).toContain(anchor);
  });
});
