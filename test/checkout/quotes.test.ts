// Signed quotes: a publishable key's answers carry them, the client package's verifyQuote checks them offline
// against the shop's own cart, and the order endpoints refuse one that does not fit the order.
import { describe, expect, it } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import { verifyQuote, type QuotePayload } from "../../client/quotes.ts";
import { encodeQuote } from "../../server/quotes/format.ts";
import { addSigningKey, SigningKeys } from "../../server/quotes/signing-keys.ts";
import { newId } from "../../server/shared/ids.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, order, orderLine, pickupPoints, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
const SHOP = "https://shop.quotes.example";

let srv: TestServer;
let m: LogisticsClient;
let merchantId: string;
let page: LogisticsClient;
let keys: S["QuoteKeySet"];

// Prices that depend on every cart fact a page can send, so a quote on other facts is a different price.
const HOME = list("home", {
  fallback_price: 5.9,
  pricing_rules: [
    { description: "Heavy", criteria: [{ fact: "order.total_weight", op: ">", value: 5000 }], price: 12.9 },
  ],
  modification_rules: [
    {
      description: "VIP",
      criteria: [{ fact: "order.tags", op: "contains", value: "vip" }],
      adjust: "multiply",
      amount: 0,
    },
    {
      description: "Big cart",
      criteria: [{ fact: "order.total_eur", op: ">=", value: 100 }],
      adjust: "set",
      amount: 0,
    },
    {
      description: "Many items",
      criteria: [{ fact: "order.item_count", op: ">", value: 3 }],
      adjust: "add",
      amount: 1,
    },
  ],
});

useTestServer(async (s) => {
  srv = s;
  await loadDemo(srv);
  m = await srv.merchant();
  await configure(m, SETTINGS, [list("letter"), HOME, list("pickup")]);
  const key = (await m.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!;
  page = createLogisticsClient({ baseUrl: srv.baseUrl, publishableKey: key.key, headers: { Origin: SHOP } });
  keys = (await (await fetch(`${srv.baseUrl}/quote_keys`)).json()) as S["QuoteKeySet"];
  merchantId = decode(homeQuote(await quoted())).merchant_id;
});

/** The cart a shop knows: 2 items of 600 g for 59.80 EUR, no tags, to Kaarina. */
const CART = {
  weight: 1200,
  cart_value: 59.8,
  item_count: 2,
  tags: [] as string[],
  postalcode: "20780",
  country: "FI",
};
const ORDER = order({
  customer: { postalcode: "20780", country: "FI" },
  products: [orderLine({ qty: 2, unit_price: 29.9, weight_g: 600 })],
});

async function quoted(query: Record<string, unknown> = {}) {
  const r = await page.GET("/shipping_options", {
    params: { query: { postalcode: "20780", country: "FI", weight: 1200, cart_value: 59.8, item_count: 2, ...query } },
  });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return r.data!;
}
const homeQuote = (answer: Awaited<ReturnType<typeof quoted>>) => {
  const home = answer.options.home as { available: true; price: S["Price"]; quote: string };
  expect(home.available).toBe(true);
  return home.quote;
};
const decode = (quote: string) => JSON.parse(Buffer.from(quote.split(".")[1]!, "base64url").toString()) as QuotePayload;
/** Another spelling of a base64url part that decodes to the same bytes (Node's decoder is lenient). */
function respell(part: string): string {
  const bytes = Buffer.from(part, "base64url");
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (const c of alphabet) {
    const other = part.slice(0, -1) + c;
    if (other !== part && Buffer.from(other, "base64url").equals(bytes)) return other;
  }
  // No unused bits in the last character: a dangling one is ignored.
  const longer = part + "A";
  expect(Buffer.from(longer, "base64url").equals(bytes)).toBe(true);
  return longer;
}
/** The quote with its payload changed and the original signature kept. */
function altered(quote: string, change: (p: QuotePayload) => void): string {
  const [h, , sig] = quote.split(".");
  const payload = decode(quote);
  change(payload);
  return `${h}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${sig}`;
}

describe("a publishable key's shipping options", () => {
  it("carry a signed quote on every available option and pickup point, with distances; a secret's do not", async () => {
    const answer = await quoted();
    expect(answer.facts).toMatchObject({ "order.total_weight": 1200, "order.total_eur": 59.8, "order.item_count": 2 });
    const quote = homeQuote(answer);
    expect(decode(quote)).toEqual({
      v: 1,
      merchant_id: merchantId,
      method: "home",
      pickup_point_id: null,
      price: { gross: 5.9, currency: "EUR", tax: 25.5 },
      facts: { postalcode: "20780", country: "FI", weight: 1200, cart_value: 59.8, item_count: 2, tags: [] },
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect(decode(quote).exp - decode(quote).iat).toBe(3600);
    expect((answer.options.letter as { quote?: string }).quote).toMatch(/\./);
    const points = pickupPoints(answer.options);
    expect(points.length).toBeGreaterThan(1);
    for (const p of points) {
      expect(decode(p.quote!)).toMatchObject({ method: "pickup", pickup_point_id: p.id, price: p.price });
      expect(p.distance_m).toEqual(expect.any(Number));
    }
    expect(points.map((p) => p.distance_m)).toEqual([...points.map((p) => p.distance_m!)].sort((a, b) => a - b));
    const secret = await m.GET("/shipping_options", {
      params: { query: { postalcode: "20780", country: "FI", weight: 1200 } },
    });
    expect(JSON.stringify(secret.data)).not.toMatch(/"quote"|distance_m/);
  });

  it("price the cart facts a page sends: tags, value and item count reach the rules", async () => {
    const price = async (q: Record<string, unknown>) =>
      ((await quoted(q)).options.home as { price: S["Price"] }).price.gross;
    expect(await price({})).toBe(5.9);
    expect(await price({ tags: ["vip"] })).toBe(0);
    expect(await price({ cart_value: 100 })).toBe(0);
    expect(await price({ item_count: 4 })).toBe(6.9);
    expect(await price({ weight: 6000 })).toBe(12.9);
    const tagged = await page.GET("/shipping_options", {
      params: { query: { postalcode: "20780", country: "FI", tags: ["gift", "vip"] } },
    });
    expect(tagged.data!.facts["order.tags"]).toEqual(["gift", "vip"]);
  });

  const badQueries: [string, string, string][] = [
    ["cart_value with three decimals", "cart_value=1.005", "/query/cart_value"],
    ["a negative cart_value", "cart_value=-1", "/query/cart_value"],
    ["cart_value in exponent form", "cart_value=1e3", "/query/cart_value"],
    ["a fractional item_count", "item_count=1.5", "/query/item_count"],
    ["a negative item_count", "item_count=-1", "/query/item_count"],
    ["an empty tag", "tags=", "/query/tags"],
    ["a tag with a leading space", "tags=%20vip", "/query/tags/0"],
    ["a tag twice", "tags=vip&tags=vip", "/query/tags"],
    ["21 tags", Array.from({ length: 21 }, (_, i) => `tags=t${i}`).join("&"), "/query/tags"],
  ];
  it.each(badQueries)("refuse %s: 400 validation_failed naming it", async (_name, query, path) => {
    for (const auth of [
      `Bearer ${(await m.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!.key}`,
    ]) {
      const r = await fetch(`${srv.baseUrl}/shipping_options?postalcode=20780&country=FI&${query}`, {
        headers: { Authorization: auth },
      });
      expectError({ response: r, error: await r.json() }, 400, "validation_failed", [path]);
    }
  });
});

describe("verifyQuote (the client package, offline)", () => {
  it("accepts a quote against the shop's own cart, in any order of tags", async () => {
    const quote = homeQuote(await quoted({ tags: ["b", "a"] }));
    const check = verifyQuote(quote, { keys, merchantId, cart: { ...CART, tags: ["a", "b"] } });
    expect(check).toEqual({ valid: true, quote: decode(quote) });
    expect(verifyQuote(quote, { keys: keys.keys, merchantId, cart: { ...CART, tags: ["b", "a"] } }).valid).toBe(true);
  });

  it("needs the shop's merchant id: without it a TypeError, unless the merchant check is skipped by name", async () => {
    const quote = homeQuote(await quoted());
    // @ts-expect-error: merchantId is required
    expect(() => verifyQuote(quote, { keys, cart: CART })).toThrow(TypeError);
    expect(() => verifyQuote(quote, { keys, merchantId: "", cart: CART })).toThrow(/merchantId/);
    expect(() => verifyQuote(quote, { keys, merchantId: undefined as unknown as string, cart: CART })).toThrow(
      TypeError,
    );
    // A backend for several merchants that compares quote.merchant_id itself.
    const skipped = verifyQuote(quote, { keys, dangerouslyAcceptAnyMerchant: true, cart: CART });
    expect(skipped).toMatchObject({ valid: true, quote: { merchant_id: merchantId } });
  });

  it("refuses each part of a quote spelled another way (the same bytes), which would let one quote pass twice", async () => {
    const quote = homeQuote(await quoted());
    const [h, p, sig] = quote.split(".") as [string, string, string];
    const signer = await new SigningKeys(srv.handle.db, 3600_000, srv.keys).current();
    // A respelled header or payload changes the signed text: signed here with the service's own key, so that only
    // the spelling is wrong. A respelled signature is the same 64 bytes: the quote's own signature still matches.
    const signed = (header: string, payload: string) =>
      `${header}.${payload}.${signer.sign(Buffer.from(`${header}.${payload}`)).toString("base64url")}`;
    expect(verifyQuote(signed(h, p), { keys, merchantId, cart: CART }).valid).toBe(true);
    const respelled: [string, string][] = [
      ["header", signed(respell(h), p)],
      ["payload", signed(h, respell(p))],
      ["signature", `${h}.${p}.${respell(sig)}`],
    ];
    for (const [part, q] of respelled) {
      expect(q, part).not.toBe(quote);
      expect(verifyQuote(q, { keys, merchantId, cart: CART }), part).toMatchObject({
        valid: false,
        problem: "quote_invalid",
        message: expect.stringMatching(/spelling/),
      });
      const r = await expectUnchanged(srv, () => m.POST("/orders/_create", { body: { ...ORDER, quote: q } }));
      expect(expectError(r, 400, "validation_failed", ["/body/quote"]).details[0]!.code, part).toBe("quote_invalid");
    }
  });

  it("stays usable for several orders until it expires: the same price for the same facts", async () => {
    const quote = homeQuote(await quoted());
    for (let i = 0; i < 2; i++) {
      const r = await m.POST("/orders/_create", { body: { ...ORDER, quote } });
      expect(r.response.status, JSON.stringify(r.error)).toBe(201);
    }
    expect(verifyQuote(quote, { keys, merchantId, cart: CART }).valid).toBe(true);
  });

  it("refuses a quote priced on facts other than the cart: a lighter weight, a vip tag the cart lacks, ...", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ weight: 100 }, /weight 100 g, the cart 1200 g/],
      [{ tags: ["vip"] }, /tags \[vip\], the cart \[\]/],
      [{ cart_value: 120 }, /cart value 120, the cart 59.8/],
      [{ item_count: 1 }, /item count 1, the cart 2/],
      [{ postalcode: "00100" }, /postal code 00100, the cart 20780/],
      [{ weight: undefined }, /weight unknown g, the cart 1200 g/],
    ];
    for (const [query, message] of cases) {
      const check = verifyQuote(homeQuote(await quoted(query)), { keys, merchantId, cart: CART });
      expect(check, JSON.stringify(query)).toMatchObject({
        valid: false,
        problem: "quote_facts",
        message: expect.stringMatching(message),
      });
    }
  });

  it("refuses a quote with any field altered, an expired one, another merchant's, an unknown key's", async () => {
    const quote = homeQuote(await quoted());
    const changes: [string, (p: QuotePayload) => void][] = [
      ["price", (p) => (p.price.gross = 0.01)],
      ["currency", (p) => (p.price.currency = "SEK")],
      ["method", (p) => (p.method = "letter")],
      ["pickup point", (p) => (p.pickup_point_id = "0123456789abcdef01234567")],
      ["weight", (p) => (p.facts.weight = 1)],
      ["tags", (p) => p.facts.tags.push("vip")],
      ["expiry", (p) => (p.exp += 86400)],
      ["merchant", (p) => (p.merchant_id = "other.example.com")],
    ];
    for (const [name, change] of changes) {
      const check = verifyQuote(altered(quote, change), { keys, merchantId, cart: CART });
      expect(check, name).toMatchObject({ valid: false, problem: "quote_invalid" });
    }
    const [h, p, sig] = quote.split(".");
    const flipped = `${h}.${p}.${sig!.slice(0, 10)}${sig![10] === "A" ? "B" : "A"}${sig!.slice(11)}`;
    expect(verifyQuote(flipped, { keys, merchantId, cart: CART })).toMatchObject({
      valid: false,
      problem: "quote_invalid",
    });
    for (const junk of ["", "a.b", "a.b.c", quote + ".x", "x".repeat(5000)])
      expect(verifyQuote(junk, { keys, merchantId, cart: CART })).toMatchObject({
        valid: false,
        problem: "quote_invalid",
      });
    const later = new Date((decode(quote).exp + 1) * 1000);
    expect(verifyQuote(quote, { keys, merchantId, cart: CART, now: later })).toMatchObject({
      valid: false,
      problem: "quote_expired",
    });
    expect(verifyQuote(quote, { keys, merchantId: "other.example.com", cart: CART })).toMatchObject({
      valid: false,
      problem: "quote_not_yours",
    });
    expect(verifyQuote(quote, { keys: [], merchantId, cart: CART })).toMatchObject({
      valid: false,
      problem: "quote_invalid",
    });
  });
});

describe("the quote keys", () => {
  it("are public, cacheable, and publish a rotation's next key a day before it signs", async () => {
    const r = await fetch(`${srv.baseUrl}/quote_keys`);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("public, max-age=3600");
    const before = ((await r.json()) as S["QuoteKeySet"]).keys;
    expect(before.length).toBeGreaterThanOrEqual(1);
    const next = await addSigningKey(srv.handle.db, srv.keys);
    expect(next.activeFrom.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    const signingKeys = new SigningKeys(srv.handle.db, 3600_000, srv.keys);
    expect((await signingKeys.published()).map((k) => k.kid)).toEqual([...before.map((k) => k.kid), next.id]);
    expect((await signingKeys.current()).kid).toBe(before.at(-1)!.kid);
  });
});

describe("a quote signed by a key the server has not read yet", () => {
  it("is accepted after one reload of the keys; forged key ids cause at most one reload a second", async () => {
    const other = await startTestServer();
    try {
      await loadDemo(other);
      const merchant = await other.merchant();
      await configure(merchant, SETTINGS, [list("letter"), HOME, list("pickup")]);
      const key = (await merchant.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!.key;
      const shop = createLogisticsClient({ baseUrl: other.baseUrl, publishableKey: key, headers: { Origin: SHOP } });
      const r = await shop.GET("/shipping_options", {
        params: { query: { postalcode: "20780", country: "FI", weight: 1200, cart_value: 59.8, item_count: 2 } },
      });
      const payload = decode(homeQuote(r.data!));
      // A rotation whose announcement this server missed (a pooler without LISTEN, say): written straight to the
      // database, and a quote signed with the new key as another instance would sign it.
      await addSigningKey(other.handle.db, other.keys, { now: true });
      const signer = await new SigningKeys(other.handle.db, 3600_000, other.keys).current();
      const place = (quote: string) => merchant.POST("/orders/_create", { body: { ...ORDER, quote } });
      const reads = () => other.quoter.keys.reads;

      const before = reads();
      const accepted = await place(encodeQuote(payload, signer.kid, signer.sign));
      expect(accepted.response.status, JSON.stringify(accepted.error)).toBe(201);
      expect(reads() - before).toBe(1);

      // Forged key ids that look new: shared reloads, at most one a second however many requests name them.
      const forged = Array.from({ length: 20 }, () => {
        const kid = newId();
        return encodeQuote(payload, kid, signer.sign);
      });
      const started = performance.now();
      const refused = await expectUnchanged(other, () => Promise.all(forged.map(place)));
      for (const f of refused)
        expect(expectError(f, 400, "validation_failed", ["/body/quote"]).details[0]!.code).toBe("quote_invalid");
      expect(reads() - before).toBeLessThanOrEqual(1 + Math.ceil((performance.now() - started) / 1000));
      // A key id older than the keys read cannot be a new key: refused without a read.
      const old = reads();
      const stale = await place(encodeQuote(payload, newId(Date.now() - 3600_000), signer.sign));
      expect(stale.response.status).toBe(400);
      expect(reads()).toBe(old);
    } finally {
      await other.close();
    }
  });
});

describe("an order placed with a quote", () => {
  const place = (body: S["OrderCreate"]) => m.POST("/orders/_create", { body });

  it("is stored with what the quote says, and the quote's pickup point as its destination", async () => {
    const point = pickupPoints((await quoted()).options)[1]!;
    const r = await place({ ...ORDER, quote: point.quote! });
    expect(r.response.status, JSON.stringify(r.error)).toBe(201);
    const stored = (await m.GET("/orders/{order_id}", { params: { path: { order_id: r.data!.order_id } } })).data!;
    expect(stored.destination).toBe(point.id);
    expect(stored.shipping_quote).toEqual(decode(point.quote!));
    const home = await place({ ...ORDER, destination: "home", quote: homeQuote(await quoted()) });
    expect(home.response.status).toBe(201);
  });

  it("refuses a quote that does not fit the order (400 on /body/quote, with its code), storing nothing", async () => {
    const fresh = homeQuote(await quoted());
    const cases: [string, S["OrderCreate"], string][] = [
      ["priced on a lighter cart", { ...ORDER, quote: homeQuote(await quoted({ weight: 100 })) }, "quote_facts"],
      ["priced with a vip tag", { ...ORDER, quote: homeQuote(await quoted({ tags: ["vip"] })) }, "quote_facts"],
      ["for another postal code", { ...ORDER, quote: homeQuote(await quoted({ postalcode: "00100" })) }, "quote_facts"],
      ["with the price altered", { ...ORDER, quote: altered(fresh, (p) => (p.price.gross = 0)) }, "quote_invalid"],
      ["for another destination", { ...ORDER, destination: "letter", quote: fresh }, "quote_destination"],
      ["not a quote", { ...ORDER, quote: "eyJhbGciOiJub25lIn0.eyJ2IjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJl" }, "quote_invalid"],
    ];
    // Each field of a genuine quote changed, the signature kept: refused as altered.
    const fields: ((p: QuotePayload) => void)[] = [
      (p) => (p.price.gross = 0),
      (p) => (p.price.tax = 0),
      (p) => (p.method = "letter"),
      (p) => (p.facts.weight = 100),
      (p) => (p.facts.tags = ["vip"]),
      (p) => (p.exp += 86400),
    ];
    for (const change of fields) {
      const r = await expectUnchanged(srv, () => place({ ...ORDER, quote: altered(fresh, change) }));
      expect(expectError(r, 400, "validation_failed", ["/body/quote"]).details[0]!.code).toBe("quote_invalid");
    }
    const malformed = await expectUnchanged(srv, () => place({ ...ORDER, quote: "not a quote at all, just words" }));
    expectError(malformed, 400, "validation_failed", ["/body/quote"]);
    for (const [name, body, code] of cases) {
      const r = await expectUnchanged(srv, () => place(body));
      const error = expectError(r, 400, "validation_failed", ["/body/quote"]);
      expect(error.details.find((d) => d.path === "/body/quote")!.code, name).toBe(code);
    }
  });

  it("refuses a pickup point's quote once the merchant's reach no longer covers the point, storing nothing", async () => {
    const points = pickupPoints((await quoted()).options);
    const far = points.reduce((a, b) => (b.distance_m! > a.distance_m! ? b : a));
    // The reach is set below the point's distance (whole kilometres, at least 1): the demo's points must allow it.
    expect(far.distance_m!).toBeGreaterThan(1000);
    const reach = Math.floor(far.distance_m! / 1000);
    const settings = (km?: number) => ({ ...SETTINGS, pickup: { enabled: true, max_distance_km: km } });
    expect((await m.PUT("/merchant/shipping_settings", { body: settings(reach) })).response.status).toBe(200);
    try {
      // The order's own options no longer offer it: neither does its quote.
      const r = await expectUnchanged(srv, () => place({ ...ORDER, quote: far.quote! }));
      const detail = expectError(r, 400, "validation_failed", ["/body/quote"]).details[0]!;
      expect(detail.code).toBe("quote_unavailable");
      expect(detail.message).toContain("pickup_points_too_far");
      // A point still within reach is accepted, at its quoted price.
      const near = points.find((p) => p.distance_m! <= reach * 1000)!;
      expect((await place({ ...ORDER, quote: near.quote! })).response.status).toBe(201);
    } finally {
      expect((await m.PUT("/merchant/shipping_settings", { body: SETTINGS })).response.status).toBe(200);
    }
    expect((await place({ ...ORDER, quote: far.quote! })).response.status).toBe(201);
  });

  it("is checked on a server that has read no keys yet (they are read before the order's transaction)", async () => {
    // On the embedded database a read of the keys inside the order's transaction would wait for that very
    // transaction's connection: a cold server is where that would show.
    const cold = await startTestServer({ database: srv.handle });
    try {
      const merchant = cold.client(`M-${merchantId}`, `secret-${merchantId}`);
      const r = await merchant.POST("/orders/_create", { body: { ...ORDER, quote: homeQuote(await quoted()) } });
      expect(r.response.status, JSON.stringify(r.error)).toBe(201);
    } finally {
      await cold.close();
    }
  });

  it("refuses an expired quote and another merchant's (signed by the service all the same)", async () => {
    const signer = await new SigningKeys(srv.handle.db, 3600_000, srv.keys).current();
    const payload = decode(homeQuote(await quoted()));
    const sign = (p: QuotePayload) => encodeQuote(p, signer.kid, signer.sign);
    const now = Math.floor(Date.now() / 1000);
    for (const [quote, code] of [
      [sign({ ...payload, iat: now - 7200, exp: now - 3600 }), "quote_expired"],
      [sign({ ...payload, merchant_id: "other.example.com" }), "quote_not_yours"],
    ] as const) {
      const r = await expectUnchanged(srv, () => place({ ...ORDER, quote }));
      expect(expectError(r, 400, "validation_failed", ["/body/quote"]).details[0]!.code).toBe(code);
    }
  });

  it("keeps its quote until a change of its facts without a new one; a modification with a quote is checked", async () => {
    const id = (await place({ ...ORDER, quote: homeQuote(await quoted()) })).data!.order_id;
    const read = async () => (await m.GET("/orders/{order_id}", { params: { path: { order_id: id } } })).data!;
    const path = { params: { path: { order_id: id } } };
    await m.POST("/orders/{order_id}", { ...path, body: { merchants_ref: "renamed" } });
    expect((await read()).shipping_quote?.method).toBe("home");
    const plain = homeQuote(await quoted());
    const wrong = await expectUnchanged(srv, () =>
      m.POST("/orders/{order_id}", { ...path, body: { tags: ["vip"], quote: plain } }),
    );
    expect(expectError(wrong, 400, "validation_failed", ["/body/quote"]).details[0]!.code).toBe("quote_facts");
    const ok = await m.POST("/orders/{order_id}", {
      ...path,
      body: { tags: ["vip"], quote: homeQuote(await quoted({ tags: ["vip"] })) },
    });
    expect(ok.response.status, JSON.stringify(ok.error)).toBe(200);
    expect((await read()).shipping_quote?.price.gross).toBe(0);
    await m.POST("/orders/{order_id}", { ...path, body: { products: [orderLine({ qty: 3 })] } });
    expect((await read()).shipping_quote).toBeUndefined();
  });
});
