// A shipping options answer sent as the text of its points' fields made once a directory point
// (server/shipping/answer-text.ts): byte for byte JSON.stringify's text of the answer, for any directory, price lists,
// facts and delivery estimates; JSON.stringify's own for every other shape. shared/answer-texts.ts compares every
// such text with JSON.stringify's outside production, so every shipping options answer of the test suite is held to
// it as well.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { components } from "../../generated/api.ts";
import { answerText, withText } from "../../server/shared/answer-texts.ts";
import { shippingOptionsText } from "../../server/shipping/answer-text.ts";
import { withEstimates } from "../../server/shipping/delivery-dates.ts";
import { genericFacts } from "../../server/shipping/facts.ts";
import { buildShippingOptions, type MethodPriceList, type PickupPoint } from "../../server/shipping/methods.ts";
import { TraceBook } from "../../server/shipping/explanation.ts";

type S = components["schemas"];
const BRANCHES = ["fi.posti", "fi.matkahuolto", "fi.db_schenker", "dk.gls"];
// Text of every kind JSON escapes: quotes, backslashes, control characters, non-ASCII, lone surrogates.
const text = fc.string({ unit: "binary", maxLength: 30 });
const point = (id: string): fc.Arbitrary<PickupPoint & { distance_m: number }> =>
  fc.record({
    id: fc.constant(id),
    name: text,
    address: text,
    postalcode: fc.stringMatching(/^\d{5}$/),
    city: text,
    country: fc.constantFrom("FI", "SE"),
    coordinates: fc.tuple(
      fc.double({ min: -90, max: 90, noNaN: true }),
      fc.double({ min: -180, max: 180, noNaN: true }),
    ),
    branch: fc.constantFrom(...BRANCHES),
    location_info: fc.option(text),
    carrier_info: fc.dictionary(
      fc.constantFrom("fi_posti", "fi_matkahuolto", "x"),
      fc.record(
        { id: text, label_name: text, type: fc.constantFrom("PICKUPPOINT", "OFFICE", "APT") },
        { requiredKeys: ["id"] },
      ),
    ),
    kind: fc.constantFrom("locker", "counter", "unknown"),
    distance_m: fc.nat(200_000),
  });
// Nearest first, with repeated ids (the answer keeps the first).
const directory = fc
  .array(fc.stringMatching(/^[0-9a-f]{24}$/), { maxLength: 60 })
  .chain((ids) => fc.tuple(...[...ids, ...ids.slice(0, 3)].map(point)));
const money = fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100);
const priceList = (method: "letter" | "home" | "pickup"): fc.Arbitrary<MethodPriceList> =>
  fc.record({
    name: fc.constant(method),
    method: fc.constant(method),
    currency: fc.constantFrom("EUR", "SEK"),
    tax: fc.constantFrom(0, 24, 25.5),
    fallback_price: money,
    pricing_rules: fc.array(
      fc.record({
        criteria: fc.tuple(
          fc.record({
            fact: fc.constant("pup.branch" as const),
            op: fc.constant("==" as const),
            value: fc.constantFrom(...BRANCHES),
          }),
        ),
        price: money,
      }),
      { maxLength: 4 },
    ),
  });
const answer = fc.record({
  points: directory,
  lists: fc.tuple(priceList("letter"), priceList("home"), priceList("pickup")),
  without: fc.subarray(["letter", "home", "pickup"] as const),
  weight: fc.option(fc.nat(40_000), { nil: undefined }),
  tags: fc.array(text, { maxLength: 3 }),
  limit: fc.integer({ min: 1, max: 50 }),
  dated: fc.boolean(),
});

type Answer = typeof answer extends fc.Arbitrary<infer T> ? T : never;

function build(a: Answer, book?: TraceBook) {
  const settings = {
    letter: { enabled: true, max_weight_g: 2000 },
    home: { enabled: true, max_weight_g: 30_000 },
    pickup: { enabled: true, max_weight_g: 35_000, max_distance_km: 500 },
    countries: ["FI", "SE"] as S["CountryCode"][],
  };
  const facts = genericFacts({ postalcode: "00100", country: "FI", weight: a.weight, tags: a.tags }, settings.letter);
  const built = buildShippingOptions(
    {
      settings,
      priceLists: a.lists.filter((l: MethodPriceList) => !(a.without as string[]).includes(l.method)),
      facts,
      pickupPoints: a.points,
      pickupReason: a.points.length ? null : "no_pickup_points",
      limit: a.limit,
    },
    book,
  );
  const options = withEstimates(built, {
    time_zone: a.dated ? "Europe/Helsinki" : null,
    delivery_times: {
      home: { handling_days: 1, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" },
      pickup: { handling_days: 0, transit_days_min: 1, transit_days_max: 3, cutoff: "12:00" },
      pickup_branches: {
        "fi.matkahuolto": { handling_days: 0, transit_days_min: 2, transit_days_max: 4, cutoff: "12:00" },
      },
    },
    country: "FI",
    now: new Date("2026-12-01T10:00:00+02:00"),
  });
  return { facts, options };
}

describe("shippingOptionsText", () => {
  it("gives JSON.stringify's text of any answer built from a directory, estimates or not", () => {
    let withPoints = 0;
    let dated = 0;
    fc.assert(
      fc.property(answer, (a) => {
        const body = build(a);
        if (body.options.pickup.available) withPoints++;
        if (JSON.stringify(body.options.pickup).includes('"delivery_estimate"')) dated++;
        expect(shippingOptionsText(body, a.points)).toBe(JSON.stringify(body));
      }),
      { numRuns: 500 },
    );
    expect(withPoints).toBeGreaterThan(100);
    expect(dated).toBeGreaterThan(50);
  });

  it("makes a point's fields once, and still gives each answer its own prices", () => {
    const points = fc.sample(directory, { numRuns: 20, seed: 7 }).find((p) => p.length >= 10)!;
    const a = {
      points,
      lists: fc.sample(fc.tuple(priceList("letter"), priceList("home"), priceList("pickup")), {
        numRuns: 1,
        seed: 3,
      })[0]!,
      without: [],
      weight: 100,
      tags: [],
      limit: 10,
      dated: false,
    };
    const first = build(a);
    expect(shippingOptionsText(first, points)).toBe(JSON.stringify(first));
    const dearer = build({
      ...a,
      lists: [a.lists[0], a.lists[1], { ...a.lists[2], fallback_price: 99, pricing_rules: [] }] as never,
    });
    expect(shippingOptionsText(dearer, points)).toBe(JSON.stringify(dearer));
    expect(JSON.stringify(dearer)).not.toBe(JSON.stringify(first));
  });

  it("leaves any other shape to JSON.stringify: an explanation, an order's answer, points not from the directory", () => {
    const a = fc.sample(
      answer.filter((x) => x.points.length > 0 && x.without.length === 0),
      { numRuns: 1, seed: 11 },
    )[0]!;
    const explained = {
      ...build(a, new TraceBook()),
      explanation: { traces: [] },
    } as unknown as S["ShippingOptionsResult"];
    expect(shippingOptionsText(explained, a.points)).toBeUndefined();
    expect(shippingOptionsText({ order_id: "0".repeat(24), ...build(a) }, a.points)).toBeUndefined();
    expect(shippingOptionsText(build(a), [])).toBeUndefined();
  });
});

describe("answerText", () => {
  it("sends an answer as its own text, and a copy of it by JSON.stringify", () => {
    const body = withText({ a: 1 }, () => '{"a":1}');
    expect(answerText(body)).toBe('{"a":1}');
    expect(answerText({ ...body, b: 2 })).toBe('{"a":1,"b":2}');
    expect(answerText(withText({ a: 1 }, () => undefined))).toBe('{"a":1}');
  });

  it("refuses, where every answer is checked, a text that is not JSON.stringify's; sends it unchecked elsewhere", () => {
    expect(() => answerText(withText({ a: 1 }, () => '{"a": 1}'))).toThrow(/differs from JSON.stringify/);
    expect(() =>
      answerText(
        withText({ a: 1 }, () => '{"a": 1}'),
        true,
      ),
    ).toThrow(/differs from JSON.stringify/);
    // Production (answers checked by a sample): the text as made, without a second serialisation to compare.
    expect(
      answerText(
        withText({ a: 1 }, () => '{"a": 1}'),
        false,
      ),
    ).toBe('{"a": 1}');
  });
});
