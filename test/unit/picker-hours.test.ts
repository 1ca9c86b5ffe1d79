// The picker's opening hours (client/picker/hours.ts): the directory's common `Mon-Fri 7-21` form said in the
// shopper's language, anything else shown as given.
import { describe, expect, it } from "vitest";
import { openingHours } from "../../client/picker/hours.ts";

describe("opening hours in the shopper's language", () => {
  it.each([
    ["fi-FI", "Mon-Fri 7-21, Sat 8-21, Sun 10-21", "ma–pe 7–21, la 8–21, su 10–21"],
    ["sv-FI", "Mon-Fri 7-21, Sat 8-21, Sun 10-21", "mån–fre 7–21, lör 8–21, sön 10–21"],
    ["en-GB", "Mon-Fri 7-21, Sat 8-21, Sun 10-21", "Mon–Fri 7–21, Sat 8–21, Sun 10–21"],
    ["fi-FI", "Mon-Sun 0-24", "ma–su 0–24"],
    ["sv-FI", "Mon-Fri 7:30-16.30", "mån–fre 7:30–16.30"],
  ])("%s: %s", (locale, given, said) => {
    expect(openingHours(given, locale)).toBe(said);
  });

  it.each([
    "Open when the shop is",
    "Mon-Fri 7-21, closed on holidays",
    "Monday to Friday 7-21",
    "",
    "Mon-Fri",
    "Mon-Fri 7-21,,",
  ])("shows %j as given: not of the common form", (given) => {
    expect(openingHours(given, "fi-FI")).toBe(given);
  });
});
