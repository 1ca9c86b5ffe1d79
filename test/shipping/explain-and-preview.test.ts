// "Why this price": explain=true adds the rule trace to every option and pickup point, and
// POST /shipping_options/_preview prices drafts of settings and price lists without saving them.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import {
  SETTINGS,
  configure,
  createOrder,
  list,
  loadDemo,
  order,
  orderLine,
  pickupPoints,
  shippingOptions,
} from "../helpers/shipping.ts";

type S = components["schemas"];
let srv: TestServer;
let m: LogisticsClient;
let saved: S["PriceList"][];

const HOME = list("home", {
  fallback_price: 9.9,
  pricing_rules: [
    { description: "Heavy", criteria: [{ fact: "order.total_weight", op: ">", value: 5000 }], price: 12.9 },
    { description: "Light", criteria: [{ fact: "order.total_weight", op: "<=", value: 5000 }], price: 5.9 },
  ],
  modification_rules: [
    {
      description: "VIP discount",
      criteria: [{ fact: "order.tags", op: "contains", value: "vip" }],
      adjust: "multiply",
      amount: 0.5,
    },
    { description: "Handling", criteria: [], adjust: "add", amount: 1 },
  ],
});
const PICKUP = list("pickup", {
  fallback_price: 4.9,
  pricing_rules: [
    { description: "Posti points", criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }], price: 3.9 },
  ],
});

useTestServer(async (s) => {
  srv = s;
  m = await s.merchant();
  await loadDemo(s);
  saved = await configure(m, SETTINGS, [HOME, PICKUP]);
});

describe("explain=true", () => {
  it("says which rule set the base price, which modifications applied, and the first criterion that failed", async () => {
    const r = await shippingOptions(m, { postalcode: "20780", country: "FI", weight: 1200, explain: true });
    const home = r.options.home as Extract<S["ShippingMethodOption"], { available: true }>;
    expect(home.price.gross).toBe(6.9);
    const e = r.explanation!;
    // The rules are said once, as saved; a trace names a rule and its failed criterion by position.
    expect(e.price_lists.home).toEqual({
      id: saved[0]!.id,
      name: "home prices",
      pricing_rules: saved[0]!.pricing_rules,
      modification_rules: saved[0]!.modification_rules,
    });
    expect(e.traces[home.explanation!.trace]).toEqual({
      base: { source: "pricing_rule", rule_index: 1, gross: 5.9 },
      pricing_rules: [
        { index: 0, matched: false, failed_criterion: 0 },
        { index: 1, matched: true, failed_criterion: null },
      ],
      modification_rules: [
        { index: 0, matched: false, failed_criterion: 0 },
        { index: 1, matched: true, failed_criterion: null, gross_after: 6.9 },
      ],
      rule_checks_omitted: 0,
    });
    expect(e.rule_checks_omitted).toBe(0);
    expect(r.options.letter).toEqual({
      available: false,
      reason: "merchant_disabled",
      explanation: { detail: "There is no price list for letter." },
    });
    expect(e.price_lists.letter).toBeUndefined();
    // Every pickup point is explained by its own branch; points priced alike share one trace.
    expect(e.price_lists.pickup?.id).toBe(saved[1]!.id);
    const points = pickupPoints(r.options);
    for (const p of points) {
      const posti = p.branch === "fi.posti";
      expect(e.traces[p.explanation!.trace]!.base).toEqual(
        posti
          ? { source: "pricing_rule", rule_index: 0, gross: 3.9 }
          : { source: "fallback_price", rule_index: null, gross: 4.9 },
      );
      expect(p.price.gross).toBe(posti ? 3.9 : 4.9);
    }
    expect(new Set(points.map((p) => p.explanation!.trace)).size).toBe(
      new Set(points.map((p) => p.branch === "fi.posti")).size,
    );
    expect(e.traces).toHaveLength(1 + new Set(points.map((p) => p.explanation!.trace)).size);
  });

  it("changes nothing else: the prices are the same with and without it, and without it there is no explanation", async () => {
    for (const weight of [0, 1200, 5001]) {
      const plain = await shippingOptions(m, { postalcode: "20780", country: "FI", weight });
      const explained = await shippingOptions(m, { postalcode: "20780", country: "FI", weight, explain: true });
      expect(JSON.stringify(plain)).not.toContain("explanation");
      expect(explained.explanation).toBeDefined();
      expect(JSON.parse(JSON.stringify(explained), (k, v) => (k === "explanation" ? undefined : v))).toEqual(plain);
    }
  });

  it("explains unavailable methods in words: weight unknown, switched off, over the weight limit, country not served", async () => {
    await configure(m, { ...SETTINGS, home: { enabled: true, max_weight_g: 3000 }, pickup: { enabled: false } }, [
      list("letter"),
    ]);
    try {
      const r = await shippingOptions(m, { postalcode: "20780", country: "FI", explain: true });
      expect(r.options.letter).toMatchObject({
        reason: "item_does_not_allow",
        explanation: { detail: "The weight is unknown (no weight was given), so a letter cannot be offered." },
      });
      expect(r.options.pickup).toMatchObject({
        reason: "merchant_disabled",
        explanation: { detail: "Pickup is switched off in your shipping settings." },
      });
      const heavy = await shippingOptions(m, { postalcode: "20780", country: "FI", weight: 4000, explain: true });
      expect(heavy.options.home).toMatchObject({
        reason: "weight_exceeded",
        explanation: { detail: "The total weight 4000 g is over home.max_weight_g 3000 g." },
      });
      expect(heavy.options.letter).toMatchObject({
        reason: "item_does_not_allow",
        explanation: { detail: "The total weight 4000 g is over letter.max_weight_g 2000 g." },
      });
      const abroad = await shippingOptions(m, { postalcode: "11122", country: "SE", explain: true });
      expect(abroad.options.home).toMatchObject({
        reason: "country_not_served",
        explanation: { detail: "The customer's country SE is not among the countries of your shipping settings (FI)." },
      });
    } finally {
      const letter = (await m.GET("/merchant/price_lists")).data!.items.find((l) => l.method === "letter")!;
      await m
        .POST(
          "/merchant/price_lists/{price_list_id}/_delete" as never,
          { params: { path: { price_list_id: letter.id } } } as never,
        )
        .catch(() => undefined);
      await m.DELETE("/merchant/price_lists/{price_list_id}", { params: { path: { price_list_id: letter.id } } });
      expect((await m.PUT("/merchant/shipping_settings", { body: SETTINGS })).response.status).toBe(200);
    }
  });

  it("works per order: the order's tags reach the trace", async () => {
    const id = await createOrder(m, order({ tags: ["vip"], products: [orderLine({ weight_g: 1000 })] }));
    const r = await m.GET("/orders/{order_id}/shipping_options", {
      params: { path: { order_id: id }, query: { explain: true } },
    });
    const home = r.data!.options.home as Extract<S["ShippingMethodOption"], { available: true }>;
    const trace = r.data!.explanation!.traces[home.explanation!.trace]!;
    expect(trace.modification_rules.map((x) => [x.matched, x.gross_after])).toEqual([
      [true, 2.95],
      [true, 3.95],
    ]);
    expect(home.price.gross).toBe(3.95);
  });

  it("refuses a value that is not a boolean", async () => {
    const r = await m.GET("/shipping_options", { params: { query: { postalcode: "20780", explain: "yes" as never } } });
    expectError(r, 400, "validation_failed", ["/query/explain"]);
  });
});

describe("POST /shipping_options/_preview", () => {
  it("prices a draft price list in place of the saved one, explained, and saves nothing", async () => {
    const draft = list("home", { name: "Cheaper home", fallback_price: 3.5 });
    const r = await expectUnchanged(srv, () =>
      m.POST("/shipping_options/_preview", {
        body: { postalcode: "20780", country: "FI", weight: 1200, price_lists: [draft] },
      }),
    );
    expect(r.response.status).toBe(200);
    const home = r.data!.options.home as Extract<S["ShippingMethodOption"], { available: true }>;
    expect(home.price.gross).toBe(3.5);
    const e = r.data!.explanation!;
    expect(e.price_lists.home).toMatchObject({ id: null, name: "Cheaper home" });
    expect(e.traces[home.explanation!.trace]!.base).toEqual({ source: "fallback_price", rule_index: null, gross: 3.5 });
    // The saved pickup list still prices the points.
    expect(pickupPoints(r.data!.options)[0]!.explanation).toEqual({ trace: expect.any(Number) });
    expect(e.price_lists.pickup?.id).toBe(saved[1]!.id);
    // Checkout's answer is what was saved.
    expect((await shippingOptions(m, { postalcode: "20780", country: "FI", weight: 1200 })).options.home).toMatchObject(
      { price: { gross: 6.9 } },
    );
  });

  it("takes draft settings, cart value and tags; without a country the customer is in FI, as GET /shipping_options has it", async () => {
    const r = await m.POST("/shipping_options/_preview", {
      body: {
        postalcode: "20780",
        weight: 100,
        cart_value: 80,
        tags: ["vip"],
        settings: { ...SETTINGS, home: { enabled: false } },
      },
    });
    expect(r.response.status).toBe(200);
    expect(r.data!.facts).toMatchObject({
      "customer.country": "FI",
      "order.total_eur": 80,
      "order.tags": ["vip"],
      "order.total_weight": 100,
      "order.letter_possible": true,
    });
    expect(r.data!.options.home).toMatchObject({
      available: false,
      reason: "merchant_disabled",
      explanation: { detail: "Home delivery is switched off in your shipping settings." },
    });
    expect(pickupPoints(r.data!.options).length).toBeGreaterThan(0);
  });

  it("checks drafts as a save would, naming the draft, and stores nothing", async () => {
    const bad: [unknown, string[]][] = [
      [
        {
          postalcode: "20780",
          price_lists: [
            list("home", {
              pricing_rules: [{ criteria: [{ fact: "order.total_weight", op: "contains", value: "x" }], price: 1 }],
            }),
          ],
        },
        ["/body/price_lists/0/pricing_rules/0/criteria/0"],
      ],
      [{ postalcode: "20780", price_lists: [list("home"), list("home")] }, ["/body/price_lists/1/method"]],
      [
        { postalcode: "20780", price_lists: [list("home", { fallback_price: 1.234 })] },
        ["/body/price_lists/0/fallback_price"],
      ],
      [{ postalcode: "2078", country: "FI" }, ["/body/postalcode"]],
      [{ postalcode: "20780", settings: { ...SETTINGS, countries: [] } }, ["/body/settings/countries"]],
      [{ postalcode: "20780", wieght: 100 }, ["/body/wieght"]],
      [
        { postalcode: "20780", price_lists: [list("home"), list("pickup"), list("letter"), list("home")] },
        ["/body/price_lists"],
      ],
    ];
    for (const [body, paths] of bad) {
      const r = await expectUnchanged(srv, () => m.POST("/shipping_options/_preview", { body: body as never }));
      const e = expectError(r, 400, "validation_failed");
      for (const p of paths)
        expect(
          e.details.map((d) => d.path).some((x) => x.startsWith(p)),
          `${JSON.stringify(e.details)} names ${p}`,
        ).toBe(true);
    }
  });

  it("is the merchant's own: a warehouse operator is 403", async () => {
    const w = await srv.operator();
    expectError(await w.POST("/shipping_options/_preview", { body: { postalcode: "20780" } }), 403, "access_denied");
  });
});
