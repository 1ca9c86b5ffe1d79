// Shopify's carrier service (issue 51 item 2): fixtures of Shopify's documented rate request (test/fixtures/shopify,
// each citing its source) replayed against the callback, and the answers compared field by field with literal
// answers worked out by hand from the price lists, the directory and the calendar below, never by the code under
// test. The clock stands at Tuesday 1 December 2026, 10:00 in Helsinki: home (1 handling day, 1-2 days on the way,
// cut-off 14:00) arrives Thu 3 - Fri 4; pickup (0 handling days, 1-3 days, cut-off 12:00) Wed 2 - Fri 4.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "kysely";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { TestClock } from "../helpers/clock.ts";
import { expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { configure, geonames, importCodes, importPoints, list, point, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
const clock = new TestClock("2026-12-01T10:00:00+02:00");
const APP_SECRET = "shpss_test0123456789abcdef0123456789";
/** The server's log lines (error level and above), to see what an operator would. */
const logged: string[] = [];

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/shopify/${name}.json`, import.meta.url), "utf8")) as {
    source: string[];
    body: unknown;
  };

// The directory: 20780 Kaarina's location, and four points north-east of it, nearest first.
const P1 = "5a60d1e2f3a4b5c6d7e8f901";
const P2 = "5a60d1e2f3a4b5c6d7e8f902";
const P3 = "5a60d1e2f3a4b5c6d7e8f903";
const P4 = "5a60d1e2f3a4b5c6d7e8f904";
const POINTS: S["PickupPoint"][] = [
  point({
    id: P1,
    name: "K-Market Piispanristi",
    address: "Koulukatu 1",
    postalcode: "20780",
    city: "KAARINA",
    coordinates: [60.401, 22.401],
    branch: "fi.posti",
    location_info: "Ma-Pe 8-21, La 9-18",
  }),
  point({
    id: P2,
    name: "Matkahuolto Kaarina",
    address: "Piispanristintie 5",
    postalcode: "20760",
    city: "KAARINA",
    coordinates: [60.41, 22.41],
    branch: "fi.matkahuolto",
    location_info: null,
  }),
  point({
    id: P3,
    name: "Posti Littoinen",
    address: "Littoistentie 2",
    postalcode: "20660",
    city: "LITTOINEN",
    coordinates: [60.45, 22.45],
    branch: "fi.posti",
    location_info: "Ma-Pe 9-17",
  }),
  point({
    id: P4,
    name: "Posti Piikkiö",
    address: "Hovirinnantie 3",
    postalcode: "21500",
    city: "PIIKKIÖ",
    coordinates: [60.5, 22.5],
    branch: "fi.posti",
    location_info: null,
  }),
];

let srv: TestServer;
let m: LogisticsClient;
let plain: S["CarrierServiceTokenWithSecret"];
let signed: S["CarrierServiceTokenWithSecret"];
let revoked: S["CarrierServiceTokenWithSecret"];

async function createToken(body: S["CarrierServiceTokenCreate"]) {
  const r = await m.POST("/shopify/carrier_service_tokens/_create", { body });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  return r.data!;
}

useTestServer(
  async (s) => {
    srv = s;
    m = await srv.merchant();
    await importCodes(srv, [geonames("FI", "20780", 60.4, 22.4, "Kaarina")]);
    await importPoints(srv, POINTS);
    await configure(
      m,
      {
        ...SETTINGS,
        countries: ["FI", "SE"],
        time_zone: "Europe/Helsinki",
        delivery_times: {
          home: { handling_days: 1, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" },
          pickup: { handling_days: 0, transit_days_min: 1, transit_days_max: 3, cutoff: "12:00" },
        },
      },
      [
        list("letter", { fallback_price: 2.9 }),
        list("home", {
          fallback_price: 5.9,
          pricing_rules: [{ criteria: [{ fact: "order.total_weight", op: ">", value: 5000 }], price: 9.9 }],
          modification_rules: [
            { criteria: [{ fact: "order.tags", op: "contains", value: "fragile" }], adjust: "add", amount: 2 },
            { criteria: [{ fact: "order.total_eur", op: ">=", value: 100 }], adjust: "set", amount: 0 },
          ],
        }),
        list("pickup", {
          fallback_price: 4.9,
          pricing_rules: [{ criteria: [{ fact: "pup.branch", op: "==", value: "fi.matkahuolto" }], price: 3.9 }],
        }),
      ],
    );
    plain = await createToken({ name: "Shop", tag_properties: ["_shipping_tag"] });
    signed = await createToken({ name: "Signed shop", tag_properties: ["_shipping_tag"], app_secret: APP_SECRET });
    revoked = await createToken({});
    const r = await m.POST("/shopify/carrier_service_tokens/{token_id}/_revoke", {
      params: { path: { token_id: revoked.id } },
    });
    expect(r.response.status).toBe(200);
  },
  { now: clock.now, logger: pino({ level: "error" }, { write: (line: string) => void logged.push(line) }) },
);

/** A rate request as Shopify sends it: the fixture's body as bytes, signed with `secret` when one is given. */
async function callback(token: string, body: unknown, opts: { secret?: string; raw?: string } = {}) {
  const text = opts.raw ?? JSON.stringify(body);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Shopify-Shop-Domain": "example-shop.myshopify.com",
  };
  if (opts.secret) headers["X-Shopify-Hmac-Sha256"] = createHmac("sha256", opts.secret).update(text).digest("base64");
  const response = await fetch(`${srv.baseUrl}/shopify/carrier_service/${token}`, {
    method: "POST",
    headers,
    body: text,
  });
  expect(response.status).toBeLessThan(500);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const HOME_DATES = { min_delivery_date: "2026-12-03 00:00:00 +0200", max_delivery_date: "2026-12-04 00:00:00 +0200" };
const PICKUP_DATES = { min_delivery_date: "2026-12-02 00:00:00 +0200", max_delivery_date: "2026-12-04 00:00:00 +0200" };

describe("Shopify's carrier service callback", () => {
  it("When Shopify asks for two shirts to 20780 in Finnish, then home, letter and the three nearest points are rates, in subunits with dates", async () => {
    const r = await callback(plain.token, fixture("cart-two-shirts-fi").body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      rates: [
        {
          service_name: "Kotiinkuljetus",
          service_code: "home",
          total_price: "590",
          currency: "EUR",
          description: "",
          ...HOME_DATES,
        },
        {
          service_name: "Kirjeenä postilaatikkoon",
          service_code: "letter",
          total_price: "290",
          currency: "EUR",
          description: "",
        },
        {
          service_name: "K-Market Piispanristi",
          service_code: P1,
          total_price: "490",
          currency: "EUR",
          description: "Koulukatu 1, 20780 KAARINA. Aukioloajat: Ma-Pe 8-21, La 9-18",
          ...PICKUP_DATES,
        },
        {
          service_name: "Matkahuolto Kaarina",
          service_code: P2,
          total_price: "390",
          currency: "EUR",
          description: "Piispanristintie 5, 20760 KAARINA",
          ...PICKUP_DATES,
        },
        {
          service_name: "Posti Littoinen",
          service_code: P3,
          total_price: "490",
          currency: "EUR",
          description: "Littoistentie 2, 20660 LITTOINEN. Aukioloajat: Ma-Pe 9-17",
          ...PICKUP_DATES,
        },
      ],
    });
  });

  it("When the cart holds a 6 kg bench tagged fragile by a property and a gift card, then home is 9.90 + 2.00 and there is no letter", async () => {
    const r = await callback(plain.token, fixture("cart-heavy-fragile-en").body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      rates: [
        {
          service_name: "Home delivery",
          service_code: "home",
          total_price: "1190",
          currency: "EUR",
          description: "",
          ...HOME_DATES,
        },
        {
          service_name: "K-Market Piispanristi",
          service_code: P1,
          total_price: "490",
          currency: "EUR",
          description: "Koulukatu 1, 20780 KAARINA. Opening hours: Ma-Pe 8-21, La 9-18",
          ...PICKUP_DATES,
        },
        {
          service_name: "Matkahuolto Kaarina",
          service_code: P2,
          total_price: "390",
          currency: "EUR",
          description: "Piispanristintie 5, 20760 KAARINA",
          ...PICKUP_DATES,
        },
        {
          service_name: "Posti Littoinen",
          service_code: P3,
          total_price: "490",
          currency: "EUR",
          description: "Littoistentie 2, 20660 LITTOINEN. Opening hours: Ma-Pe 9-17",
          ...PICKUP_DATES,
        },
      ],
    });
  });

  it("When the cart is worth 120.00 EUR and the shopper reads Swedish, then home delivery is free ('0') and the words are Swedish", async () => {
    const r = await callback(plain.token, fixture("cart-over-100-sv").body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      rates: [
        {
          service_name: "Hemleverans",
          service_code: "home",
          total_price: "0",
          currency: "EUR",
          description: "",
          ...HOME_DATES,
        },
        {
          service_name: "Brev till brevlådan",
          service_code: "letter",
          total_price: "290",
          currency: "EUR",
          description: "",
        },
        {
          service_name: "K-Market Piispanristi",
          service_code: P1,
          total_price: "490",
          currency: "EUR",
          description: "Koulukatu 1, 20780 KAARINA. Öppettider: Ma-Pe 8-21, La 9-18",
          ...PICKUP_DATES,
        },
        {
          service_name: "Matkahuolto Kaarina",
          service_code: P2,
          total_price: "390",
          currency: "EUR",
          description: "Piispanristintie 5, 20760 KAARINA",
          ...PICKUP_DATES,
        },
        {
          service_name: "Posti Littoinen",
          service_code: P3,
          total_price: "490",
          currency: "EUR",
          description: "Littoistentie 2, 20660 LITTOINEN. Öppettider: Ma-Pe 9-17",
          ...PICKUP_DATES,
        },
      ],
    });
  });

  it("When the destination has no pickup point near, then home and letter are the rates", async () => {
    const r = await callback(plain.token, fixture("destination-no-points").body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      rates: [
        {
          service_name: "Home delivery",
          service_code: "home",
          total_price: "590",
          currency: "EUR",
          description: "",
          ...HOME_DATES,
        },
        {
          service_name: "Letter to your mailbox",
          service_code: "letter",
          total_price: "290",
          currency: "EUR",
          description: "",
        },
      ],
    });
  });

  it("When the cart is in a currency the merchant does not price, then there are no rates (200), and nothing is converted", async () => {
    const r = await expectUnchanged(srv, () => callback(plain.token, fixture("currency-not-priced").body));
    expect(r).toEqual({ status: 200, body: { rates: [] } });
  });

  it("When working out the rates fails, then there are no rates (200, Shopify shows its backup rates), and the log says why with the request's id", async () => {
    const body = fixture("cart-two-shirts-fi").body as { rate: { destination: Record<string, unknown> } };
    // A destination no earlier case asked for (nothing cached), while the pickup points' table is away.
    const elsewhere = { rate: { ...body.rate, destination: { ...body.rate.destination, postal_code: "20660" } } };
    logged.length = 0;
    await sql`alter table pickup_points rename to pickup_points_away`.execute(srv.handle.db);
    let r: Awaited<ReturnType<typeof callback>>;
    let requestId: string | null;
    try {
      const response = await fetch(`${srv.baseUrl}/shopify/carrier_service/${plain.token}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(elsewhere),
      });
      requestId = response.headers.get("x-request-id");
      r = { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } finally {
      await sql`alter table pickup_points_away rename to pickup_points`.execute(srv.handle.db);
    }
    expect(r).toEqual({ status: 200, body: { rates: [] } });
    const lines = logged.map(
      (l) => JSON.parse(l) as { msg: string; reqId: string; operation: string; err: { message: string } },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: "Shopify's carrier service answered no rates: working them out failed",
      reqId: requestId,
      operation: "getShopifyRates",
    });
    expect(lines[0]!.err.message).toContain("pickup_points");
  });

  it("When the body is not Shopify's rate request, then 400 validation_failed names what is missing, and nothing changes", async () => {
    const r = await expectUnchanged(srv, () => callback(plain.token, fixture("malformed-no-items").body));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: "validation_failed" });
    const paths = (r.body.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["/body/rate/destination", "/body/rate/items"]));
    const broken = await expectUnchanged(srv, () => callback(plain.token, null, { raw: '{"rate": {' }));
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ success: false, code: "validation_failed" });
  });

  it("When the token is unknown or revoked, then 404 not_found, and nothing changes", async () => {
    const body = fixture("cart-two-shirts-fi").body;
    const unknown = await expectUnchanged(srv, () => callback(`cs_${"x".repeat(32)}`, body));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, code: "not_found" });
    const gone = await expectUnchanged(srv, () => callback(revoked.token, body));
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ success: false, code: "not_found" });
  });

  it("When the token holds the app secret, then a request signed with it is answered, and an unsigned or wrongly signed one is 401", async () => {
    const body = fixture("cart-two-shirts-fi").body;
    const expected = await callback(plain.token, body);
    expect(await callback(signed.token, body, { secret: APP_SECRET })).toEqual(expected);
    for (const opts of [{}, { secret: "shpss_another_secret_0000" }]) {
      const r = await expectUnchanged(srv, () => callback(signed.token, body, opts));
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ success: false, code: "unauthorized" });
    }
  });

  it("When the token holds no app secret, then signed and unsigned requests are answered alike", async () => {
    const body = fixture("cart-two-shirts-fi").body;
    const unsigned = await callback(plain.token, body);
    expect(unsigned.status).toBe(200);
    expect(await callback(plain.token, body, { secret: "whatever-the-shop-uses" })).toEqual(unsigned);
  });

  it("every fixture cites Shopify's documentation", () => {
    for (const name of ["cart-two-shirts-fi", "cart-heavy-fragile-en", "cart-over-100-sv", "destination-no-points"])
      expect(fixture(name).source[0]).toBe("https://shopify.dev/docs/api/admin-rest/2023-10/resources/carrierservice");
  });
});

describe("Shopify callback tokens", () => {
  it("are created with the token shown once, listed without it newest first, and revoked", async () => {
    expect(signed).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: "Signed shop",
      token_hint: signed.token.slice(0, 7),
      pickup_rates: 3,
      tag_properties: ["_shipping_tag"],
      has_app_secret: true,
      created_at: expect.stringMatching(/\+00:00$/),
      revoked_at: null,
      token: expect.stringMatching(/^cs_[A-Za-z0-9]{32}$/),
      callback_url: `/shopify/carrier_service/${signed.token}`,
    });
    const listed = (await m.GET("/shopify/carrier_service_tokens")).data!.items;
    expect(listed.map((t) => t.id)).toEqual([revoked.id, signed.id, plain.id]);
    expect(JSON.stringify(listed)).not.toContain(signed.token);
    expect(JSON.stringify(listed)).not.toContain(APP_SECRET);
    expect(listed[0]!.revoked_at).toMatch(/\+00:00$/);
    const again = await m.POST("/shopify/carrier_service_tokens/{token_id}/_revoke", {
      params: { path: { token_id: revoked.id } },
    });
    expect(again.data).toEqual(listed[0]);
  });

  it("are stored as a hash, and the app secret sealed", async () => {
    const rows = (await srv.snapshot())["carrier_service_tokens"] as Record<string, unknown>[];
    const text = JSON.stringify(rows);
    expect(text).not.toContain(signed.token);
    expect(text).not.toContain(APP_SECRET);
  });

  const bad: [string, unknown, string][] = [
    ["pickup_rates over 10", { pickup_rates: 11 }, "/body/pickup_rates"],
    ["an unknown property", { pickup_rate: 2 }, "/body/pickup_rate"],
    ["an app secret with spaces", { app_secret: "not a secret" }, "/body/app_secret"],
    ["an empty tag property", { tag_properties: [""] }, "/body/tag_properties/0"],
  ];
  it.each(bad)(
    "When a token is asked with %s, then 400 validation_failed, and nothing is stored",
    async (_, body, path) => {
      const r = await expectUnchanged(srv, () =>
        m.POST("/shopify/carrier_service_tokens/_create", { body: body as S["CarrierServiceTokenCreate"] }),
      );
      expect(r.response.status).toBe(400);
      const error = r.error as S["Error"];
      expect(error.code).toBe("validation_failed");
      expect(error.details.map((d) => d.path)).toContain(path);
    },
  );

  it("another merchant's token does not exist for you (404), and nothing changes", async () => {
    const other = await srv.merchant();
    const r = await expectUnchanged(srv, () =>
      other.POST("/shopify/carrier_service_tokens/{token_id}/_revoke", { params: { path: { token_id: plain.id } } }),
    );
    expect(r.response.status).toBe(404);
    expect((r.error as S["Error"]).code).toBe("not_found");
  });
});
