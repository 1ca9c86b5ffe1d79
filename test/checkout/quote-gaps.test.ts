// What a second attack found between a quote and the order it is sent with (issue 58): a postal code spelled
// another way escaped a surcharge, and an order was priced on the checkout's facts instead of its own. Postal codes
// are now in their country's form wherever they enter, and an order's quote must give the order's own answer.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import { verifyQuote, type QuotePayload } from "../../client/quotes.ts";
import * as ruleContract from "../../server/db/migrations/contract/0016_rule_postal_codes.ts";
import { encodeQuote } from "../../server/quotes/format.ts";
import { SigningKeys } from "../../server/quotes/signing-keys.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, order, orderLine, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
const SHOP = "https://shop.gaps.example";
const MERCHANT = "gaps.example.com";

let srv: TestServer;
let m: LogisticsClient;
let page: LogisticsClient;
let keys: S["QuoteKeySet"];

// Surcharges on each fact the attack used; the rules' postal codes written in other spellings than the country's.
const HOME = list("home", {
  fallback_price: 6.9,
  pricing_rules: [
    {
      description: "Kiruna",
      criteria: [
        { fact: "customer.country", op: "==", value: "SE" },
        { fact: "customer.postalcode", op: "==", value: "98138" },
      ],
      price: 16.9,
    },
    {
      description: "Shetland",
      criteria: [
        { fact: "customer.country", op: "in", value: ["GB"] },
        { fact: "customer.postalcode", op: "in", value: ["ze1-0aa"] },
      ],
      price: 21.9,
    },
    { description: "Bulky", criteria: [{ fact: "order.total_volume", op: ">", value: 50 }], price: 29.9 },
    { description: "Many articles", criteria: [{ fact: "order.item_article_count", op: ">", value: 3 }], price: 19.9 },
    { description: "Island", criteria: [{ fact: "customer.address", op: "contains", value: "Saari" }], price: 26.9 },
  ],
});

useTestServer(async (s) => {
  srv = s;
  await loadDemo(srv);
  m = await srv.merchant(MERCHANT);
  await configure(m, { ...SETTINGS, countries: ["FI", "SE", "GB"] }, [list("letter"), HOME, list("pickup")]);
  const key = (await m.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!.key;
  page = createLogisticsClient({ baseUrl: srv.baseUrl, publishableKey: key, headers: { Origin: SHOP } });
  keys = (await (await fetch(`${srv.baseUrl}/quote_keys`)).json()) as S["QuoteKeySet"];
});

/** The checkout's cart: 2 items of 600 g for 59.80 EUR. */
const CART = { weight: 1200, cart_value: 59.8, item_count: 2 };
const LINES = [orderLine({ qty: 2, unit_price: 29.9, weight_g: 600 })];

async function options(postalcode: string, country: "FI" | "SE" | "GB", cart: Record<string, unknown> = CART) {
  const r = await page.GET("/shipping_options", { params: { query: { postalcode, country, ...cart } } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return r.data!;
}
const quoteOf = (answer: Awaited<ReturnType<typeof options>>, method: "home" | "letter") => {
  const option = answer.options[method] as { available: boolean; price: S["Price"]; quote: string };
  expect(option.available, method).toBe(true);
  return option;
};
const decode = (quote: string) => JSON.parse(Buffer.from(quote.split(".")[1]!, "base64url").toString()) as QuotePayload;
const place = (body: S["OrderCreate"]) => m.POST("/orders/_create", { body });
/** A refused order: 400 on /body/quote with `code`, nothing stored; the detail's message. */
async function refused(body: S["OrderCreate"], code: string): Promise<string> {
  const r = await expectUnchanged(srv, () => place(body));
  const detail = expectError(r, 400, "validation_failed", ["/body/quote"]).details[0]!;
  expect(detail.code, detail.message).toBe(code);
  return detail.message;
}

describe("postal codes in another spelling", () => {
  it("a rule written in another spelling is saved in its country's form", async () => {
    const home = (await m.GET("/merchant/price_lists")).data!.items.find((l) => l.method === "home")!;
    expect(home.pricing_rules[0]!.criteria[1]).toEqual({ fact: "customer.postalcode", op: "==", value: "981 38" });
    expect(home.pricing_rules[1]!.criteria[1]).toEqual({ fact: "customer.postalcode", op: "in", value: ["ZE1 0AA"] });
  });

  const spellings: [string, "SE" | "GB", string[], string, number][] = [
    ["SE", "SE", ["981 38", "98138", "981-38"], "981 38", 16.9],
    ["GB", "GB", ["ZE1 0AA", "ze1-0aa", "ze10aa", "Ze1  0aA"], "ZE1 0AA", 21.9],
  ];
  it.each(spellings)(
    "%s: every spelling gives one price, the facts and quote in the country's form, for shops, pages and orders",
    async (_name, country, written, form, price) => {
      for (const postalcode of written) {
        const answer = await options(postalcode, country);
        expect(answer.facts["customer.postalcode"], postalcode).toBe(form);
        const home = quoteOf(answer, "home");
        expect(home.price.gross, postalcode).toBe(price);
        expect(decode(home.quote).facts.postalcode).toBe(form);
        const secret = await m.GET("/shipping_options", { params: { query: { postalcode, country } } });
        expect((secret.data!.options.home as { price: S["Price"] }).price.gross, postalcode).toBe(price);
        const lookup = await m.GET("/pickup_points/lookup", { params: { query: { postalcode, country } } });
        expect(lookup.data!.postalcode).toBe(form);
      }
      // An order to one spelling with a quote asked with another: stored, priced and checked in the one form.
      const quote = quoteOf(await options(written[0]!, country), "home").quote;
      const placed = await place(
        order({ customer: { postalcode: written.at(-1)!, country }, products: LINES, destination: "home", quote }),
      );
      expect(placed.response.status, JSON.stringify(placed.error)).toBe(201);
      const id = placed.data!.order_id;
      const stored = (await m.GET("/orders/{order_id}", { params: { path: { order_id: id } } })).data!;
      expect(stored.customer.postalcode).toBe(form);
      const own = await m.GET("/orders/{order_id}/shipping_options", { params: { path: { order_id: id } } });
      expect((own.data!.options.home as { price: S["Price"] }).price.gross).toBe(price);
      expect(
        verifyQuote(quote, {
          keys,
          merchantId: MERCHANT,
          cart: { ...CART, tags: [], postalcode: written[1]!, country },
        }).valid,
      ).toBe(true);
    },
  );

  it.each(spellings)(
    "%s: the cheaper quote a compact spelling got before is refused by the order and by verifyQuote",
    async (_name, country, written, form) => {
      // What the release before signed for the compact spelling: the fallback price, its facts as typed.
      const signer = await new SigningKeys(srv.handle.db, 3600_000, srv.keys).current();
      const genuine = decode(quoteOf(await options(form, country), "home").quote);
      const cheap: QuotePayload = {
        ...genuine,
        price: { ...genuine.price, gross: 6.9 },
        facts: { ...genuine.facts, postalcode: written[1]! },
      };
      const quote = encodeQuote(cheap, signer.kid, signer.sign);
      const check = verifyQuote(quote, {
        keys,
        merchantId: MERCHANT,
        cart: { ...CART, tags: [], postalcode: form, country },
      });
      expect(check).toMatchObject({ valid: false, problem: "quote_facts" });
      const body = order({ customer: { postalcode: form, country }, products: LINES, quote });
      expect(await refused(body, "quote_facts")).toMatch(/postal code/);
    },
  );
});

describe("price rules saved before postal codes were normalised", () => {
  it("still price every spelling, and the contract migration rewrites them in their country's form", async () => {
    const id = "gaps-before.example.com";
    const before = await srv.merchant(id);
    await configure(before, { ...SETTINGS, countries: ["SE"] }, [list("home", { fallback_price: 6.9 })]);
    // As the release before stored them: the spelling the merchant typed.
    const rules = [
      {
        description: "Kiruna",
        criteria: [
          { fact: "customer.country", op: "==", value: "SE" },
          { fact: "customer.postalcode", op: "in", value: ["98138", "981-39"] },
        ],
        price: 16.9,
      },
    ];
    await sql`update price_lists set pricing_rules = ${JSON.stringify(rules)}::jsonb
      where merchant_id = ${id} and method = 'home'`.execute(srv.handle.db);
    srv.caches.shippingConfig.clear();
    const price = async (postalcode: string) =>
      (
        (await before.GET("/shipping_options", { params: { query: { postalcode, country: "SE" } } })).data!.options
          .home as { price: S["Price"] }
      ).price.gross;
    for (const code of ["981 38", "98138", "981 39"]) expect(await price(code), code).toBe(16.9);
    await ruleContract.up(srv.handle.db);
    srv.caches.shippingConfig.clear();
    const home = (await before.GET("/merchant/price_lists")).data!.items[0]!;
    expect(home.pricing_rules[0]!.criteria[1]!.value).toEqual(["981 38", "981 39"]);
    for (const code of ["981 38", "98138"]) expect(await price(code), code).toBe(16.9);
  });
});

describe("an order with a quote is priced on its own facts", () => {
  /** A home quote for 20780 on the cart, and an order on that cart to change. */
  const homeQuote = async (cart: Record<string, unknown> = CART) => quoteOf(await options("20780", "FI", cart), "home");
  const base = (over: Partial<S["OrderCreate"]>) =>
    order({ customer: { postalcode: "20780", country: "FI" }, products: LINES, ...over });

  it("is accepted when its own answer gives the quote's method, point and price", async () => {
    const home = await homeQuote();
    const r = await place(base({ quote: home.quote }));
    expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  });

  it("is refused naming the price when its volume, article count or address prices it higher (quote_price)", async () => {
    const home = await homeQuote();
    expect(home.price.gross).toBe(6.9);
    const bulky = [
      orderLine({ qty: 2, unit_price: 29.9, weight_g: 600, dimensions_mm: { length: 600, width: 400, height: 300 } }),
    ];
    expect(await refused(base({ products: bulky, quote: home.quote }), "quote_price")).toMatch(/29\.9 EUR.*6\.9 EUR/);

    // Four articles of 300 g for 14.95: the same weight, value and item count as a four-item checkout cart.
    const four = await homeQuote({ weight: 1200, cart_value: 59.8, item_count: 4 });
    expect(four.price.gross).toBe(6.9);
    const articles = ["A", "B", "C", "D"].map((id) =>
      orderLine({ merchants_id: `SKU-${id}`, qty: 1, unit_price: 14.95, weight_g: 300 }),
    );
    expect(await refused(base({ products: articles, quote: four.quote }), "quote_price")).toMatch(/19\.9 EUR/);

    const island = base({ customer: { postalcode: "20780", country: "FI", address: "Saaritie 1" }, quote: home.quote });
    expect(await refused(island, "quote_price")).toMatch(/26\.9 EUR/);
  });

  it("is refused when its own answer does not offer the quote's method: a letter quote for a large item (quote_unavailable)", async () => {
    const letter = quoteOf(await options("20780", "FI"), "letter");
    const large = [orderLine({ qty: 2, unit_price: 29.9, weight_g: 600, letter_allowed: false })];
    expect(await refused(base({ products: large, quote: letter.quote }), "quote_unavailable")).toMatch(/letter/);
    const big = [
      orderLine({ qty: 2, unit_price: 29.9, weight_g: 600, dimensions_mm: { length: 500, width: 400, height: 300 } }),
    ];
    expect(await refused(base({ products: big, quote: letter.quote }), "quote_unavailable")).toMatch(
      /item_does_not_allow/,
    );
  });

  it("a modification with a quote is checked against the order as it will be", async () => {
    const home = await homeQuote();
    const id = (await place(base({ quote: home.quote }))).data!.order_id;
    const path = { params: { path: { order_id: id } } };
    const r = await expectUnchanged(srv, () =>
      m.POST("/orders/{order_id}", {
        ...path,
        body: { customer: { postalcode: "20780", country: "FI", address: "Saaritie 1" }, quote: home.quote },
      }),
    );
    expect(expectError(r, 400, "validation_failed", ["/body/quote"]).details[0]!.code).toBe("quote_price");
  });
});
