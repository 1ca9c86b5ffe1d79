// Merchant shipping settings and price lists through the API: defaults, replace, CRUD, rule validation on write,
// conflicts, tenant isolation, idempotent create; every refusal changes nothing.
import { describe, expect, it } from "vitest";
import type { components } from "../../client/index.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { SETTINGS, list } from "../helpers/shipping.ts";

type S = components["schemas"];

let srv: TestServer;
useTestServer((s) => {
  srv = s;
});

const id = (price_list_id: string) => ({ params: { path: { price_list_id } } });

describe("shipping settings", () => {
  it("are the documented defaults until replaced, then what was sent (pickup_points_limit 10 when omitted)", async () => {
    const m = await srv.merchant();
    const defaults = await m.GET("/merchant/shipping_settings");
    expect(defaults.data).toEqual({
      letter: { enabled: true, max_weight_g: 2000 },
      home: { enabled: true },
      pickup: { enabled: true, max_distance_km: 50 },
      countries: ["FI"],
      pickup_points_limit: 10,
      time_zone: null,
      delivery_times: {},
      updated_at: null,
    });
    const put = await m.PUT("/merchant/shipping_settings", {
      body: { ...SETTINGS, home: { enabled: false, max_weight_g: 30000 }, countries: ["FI", "SE"] },
    });
    expect(put.response.status).toBe(200);
    expect(put.data).toMatchObject({
      home: { enabled: false, max_weight_g: 30000 },
      countries: ["FI", "SE"],
      pickup_points_limit: 10,
    });
    expect(put.data!.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect((await m.GET("/merchant/shipping_settings")).data).toEqual(put.data);
    const again = await m.PUT("/merchant/shipping_settings", { body: { ...SETTINGS, pickup_points_limit: 3 } });
    expect(again.data).toMatchObject({ home: { enabled: true }, countries: ["FI"], pickup_points_limit: 3 });
    expect(again.data!.home).not.toHaveProperty("max_weight_g");
    // Another merchant still has the defaults.
    expect((await (await srv.merchant()).GET("/merchant/shipping_settings")).data!.updated_at).toBeNull();
  });

  it.each([
    ["a missing method", { letter: SETTINGS.letter, home: SETTINGS.home, countries: ["FI"] }, "/body/pickup"],
    ["an unknown property", { ...SETTINGS, sms: { enabled: true } }, "/body/sms"],
    ["letter without a weight limit", { ...SETTINGS, letter: { enabled: true } }, "/body/letter/max_weight_g"],
    [
      "a letter limit over 5 kg",
      { ...SETTINGS, letter: { enabled: true, max_weight_g: 5001 } },
      "/body/letter/max_weight_g",
    ],
    ["a zero home limit", { ...SETTINGS, home: { enabled: true, max_weight_g: 0 } }, "/body/home/max_weight_g"],
    ["no countries", { ...SETTINGS, countries: [] }, "/body/countries"],
    ["a country twice", { ...SETTINGS, countries: ["FI", "FI"] }, "/body/countries"],
    ["a lower-case country", { ...SETTINGS, countries: ["fi"] }, "/body/countries/0"],
    ["a country ISO 3166-1 does not assign (XX)", { ...SETTINGS, countries: ["FI", "XX"] }, "/body/countries/1"],
    ["a user-assigned country code (ZZ)", { ...SETTINGS, countries: ["ZZ"] }, "/body/countries/0"],
    ["51 pickup points", { ...SETTINGS, pickup_points_limit: 51 }, "/body/pickup_points_limit"],
    ["0 pickup points", { ...SETTINGS, pickup_points_limit: 0 }, "/body/pickup_points_limit"],
    ["enabled as a string", { ...SETTINGS, home: { enabled: "yes" } }, "/body/home/enabled"],
  ])("refuses %s: 400 naming it, nothing stored", async (_name, body, path) => {
    const m = await srv.merchant();
    await m.PUT("/merchant/shipping_settings", { body: SETTINGS });
    const r = await expectUnchanged(srv, () =>
      m.PUT("/merchant/shipping_settings", { body: body as S["ShippingSettingsInput"] }),
    );
    expectError(r, 400, "validation_failed", [path]);
  });

  it("are the merchant's: a warehouse operator is 403", async () => {
    const w = await srv.operator();
    expectError(await w.GET("/merchant/shipping_settings"), 403, "access_denied");
    expectError(
      await expectUnchanged(srv, () => w.PUT("/merchant/shipping_settings", { body: SETTINGS })),
      403,
      "access_denied",
    );
  });
});

describe("price lists", () => {
  const pickup = list("pickup", {
    pricing_rules: [
      { description: "Posti", criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }], price: 3.9 },
    ],
    modification_rules: [
      { criteria: [{ fact: "order.tags", op: "contains", value: "vip" }], adjust: "set", amount: 0 },
    ],
  });

  it("are created, read, listed by method, replaced and deleted", async () => {
    const m = await srv.merchant();
    const created = await m.POST("/merchant/price_lists/_create", { body: pickup });
    expect(created.response.status).toBe(201);
    const stored = created.data!;
    expect(stored).toEqual({
      ...pickup,
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await m.GET("/merchant/price_lists/{price_list_id}", id(stored.id))).data).toEqual(stored);

    const home = (
      await m.POST("/merchant/price_lists/_create", {
        body: list("home", { pricing_rules: undefined, modification_rules: undefined }),
      })
    ).data!;
    expect(home).toMatchObject({ pricing_rules: [], modification_rules: [], fallback_price: 5.9, tax: 25.5 });
    expect((await m.GET("/merchant/price_lists")).data!.items.map((l) => l.method)).toEqual(["home", "pickup"]);

    const replaced = await m.PUT("/merchant/price_lists/{price_list_id}", {
      ...id(home.id),
      body: list("letter", { fallback_price: 1.5, tax: 14 }),
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data).toMatchObject({
      id: home.id,
      method: "letter",
      fallback_price: 1.5,
      tax: 14,
      created_at: home.created_at,
    });

    const del = await m.DELETE("/merchant/price_lists/{price_list_id}", id(home.id));
    expect(del.data).toEqual({ success: true, id: home.id });
    expectError(await m.GET("/merchant/price_lists/{price_list_id}", id(home.id)), 404, "not_found");
    expectError(
      await expectUnchanged(srv, () => m.DELETE("/merchant/price_lists/{price_list_id}", id(home.id))),
      404,
      "not_found",
    );
    expect((await m.GET("/merchant/price_lists")).data!.items.map((l) => l.id)).toEqual([stored.id]);
  });

  it("one per method: a second list for a method, or a replace onto a taken method, is 409 and changes nothing", async () => {
    const m = await srv.merchant();
    const a = (await m.POST("/merchant/price_lists/_create", { body: list("home") })).data!;
    await m.POST("/merchant/price_lists/_create", { body: list("letter") });
    const dup = await expectUnchanged(srv, () =>
      m.POST("/merchant/price_lists/_create", { body: list("home", { name: "Another" }) }),
    );
    expectError(dup, 409, "conflict", ["/body/method"]);
    expectError(
      await expectUnchanged(srv, () =>
        m.PUT("/merchant/price_lists/{price_list_id}", { ...id(a.id), body: list("letter") }),
      ),
      409,
      "conflict",
    );
    // Another merchant may have its own home list.
    expect(
      (await (await srv.merchant()).POST("/merchant/price_lists/_create", { body: list("home") })).response.status,
    ).toBe(201);
  });

  it("are the merchant's own: another merchant's list is 404 for read, replace and delete", async () => {
    const [m, other] = [await srv.merchant(), await srv.merchant()];
    const mine = (await m.POST("/merchant/price_lists/_create", { body: list("pickup") })).data!;
    expectError(await other.GET("/merchant/price_lists/{price_list_id}", id(mine.id)), 404, "not_found");
    expectError(
      await expectUnchanged(srv, () =>
        other.PUT("/merchant/price_lists/{price_list_id}", { ...id(mine.id), body: list("pickup") }),
      ),
      404,
      "not_found",
    );
    expectError(
      await expectUnchanged(srv, () => other.DELETE("/merchant/price_lists/{price_list_id}", id(mine.id))),
      404,
      "not_found",
    );
    expect((await other.GET("/merchant/price_lists")).data!.items).toEqual([]);
    expectError(await (await srv.operator()).GET("/merchant/price_lists"), 403, "access_denied");
  });

  it("create is idempotent with Idempotency-Key; the same key with another body is 422", async () => {
    const m = await srv.merchant();
    const key = { params: { header: { "Idempotency-Key": "pl-1" } } };
    const first = await m.POST("/merchant/price_lists/_create", { ...key, body: list("letter") });
    const retry = await m.POST("/merchant/price_lists/_create", { ...key, body: list("letter") });
    expect(retry.response.status).toBe(201);
    expect(retry.response.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.data).toEqual(first.data);
    expectError(
      await expectUnchanged(srv, () => m.POST("/merchant/price_lists/_create", { ...key, body: list("home") })),
      422,
      "idempotency_key_reused",
    );
  });

  const rule = (criteria: unknown[], extra: Record<string, unknown> = {}) => ({ criteria, price: 1, ...extra });
  const mod = (adjust: string, amount: number) => ({ criteria: [], adjust, amount });
  it.each([
    [
      "an unknown fact",
      { pricing_rules: [rule([{ fact: "order.colour", op: "==", value: "red" }])] },
      "/body/pricing_rules/0/criteria/0/fact",
    ],
    [
      "< on a string fact",
      { pricing_rules: [rule([{ fact: "customer.country", op: "<", value: "FI" }])] },
      "/body/pricing_rules/0/criteria/0/op",
    ],
    [
      "contains on a number fact",
      {
        modification_rules: [
          { ...mod("add", 1), criteria: [{ fact: "order.total_weight", op: "contains", value: "1" }] },
        ],
      },
      "/body/modification_rules/0/criteria/0/op",
    ],
    [
      "a number compared with a string",
      { pricing_rules: [rule([{ fact: "order.total_weight", op: "<=", value: "2000" }])] },
      "/body/pricing_rules/0/criteria/0/value",
    ],
    [
      "a value the fact can never have",
      { pricing_rules: [rule([{ fact: "order.shipping_type", op: "==", value: "drone" }])] },
      "/body/pricing_rules/0/criteria/0/value",
    ],
    [
      "in without an array",
      { pricing_rules: [rule([{ fact: "customer.country", op: "in", value: "FI" }])] },
      "/body/pricing_rules/0/criteria/0/value",
    ],
    [
      "a branch that cannot exist",
      { pricing_rules: [rule([{ fact: "pup.branch", op: "in", value: ["fi.posti", "Posti"] }])] },
      "/body/pricing_rules/0/criteria/0/value/1",
    ],
    ["a price with three decimals", { pricing_rules: [rule([], { price: 1.999 })] }, "/body/pricing_rules/0/price"],
    ["a fallback with three decimals", { fallback_price: 4.905 }, "/body/fallback_price"],
    ["a negative fallback", { fallback_price: -1 }, "/body/fallback_price"],
    [
      "a negative multiply factor",
      { modification_rules: [mod("multiply", -0.5)] },
      "/body/modification_rules/0/amount",
    ],
    ["a negative set", { modification_rules: [mod("set", -1)] }, "/body/modification_rules/0/amount"],
    ["an add with three decimals", { modification_rules: [mod("add", 0.005)] }, "/body/modification_rules/0/amount"],
    ["an unknown adjust", { modification_rules: [mod("divide", 2)] }, "/body/modification_rules/0/adjust"],
    ["a lower-case currency", { currency: "eur" }, "/body/currency"],
    ["a currency ISO 4217 does not have", { currency: "ZZZ" }, "/body/currency"],
    ["the ISO 4217 testing code", { currency: "XTS" }, "/body/currency"],
    ["VAT with more than two decimals", { tax: 25.123456789 }, "/body/tax"],
    ["VAT with three decimals", { tax: 25.125 }, "/body/tax"],
    ["VAT over 100", { tax: 101 }, "/body/tax"],
    ["an unknown method", { method: "drone" }, "/body/method"],
    ["an unknown property", { colour: "red" }, "/body/colour"],
    ["an empty name", { name: "" }, "/body/name"],
  ])("refuses %s: 400 naming it, on create and replace, nothing stored", async (_name, change, path) => {
    const m = await srv.merchant();
    const existing = (await m.POST("/merchant/price_lists/_create", { body: list("home") })).data!;
    const body = { ...list("pickup"), ...change } as S["PriceListInput"];
    expectError(
      await expectUnchanged(srv, () => m.POST("/merchant/price_lists/_create", { body })),
      400,
      "validation_failed",
      [path],
    );
    expectError(
      await expectUnchanged(srv, () => m.PUT("/merchant/price_lists/{price_list_id}", { ...id(existing.id), body })),
      400,
      "validation_failed",
      [path],
    );
  });

  it("names every bad rule at once", async () => {
    const m = await srv.merchant();
    const r = await m.POST("/merchant/price_lists/_create", {
      body: list("home", {
        pricing_rules: [
          rule([{ fact: "customer.country", op: ">=", value: "FI" }]),
          rule([{ fact: "order.tags", op: "==", value: "vip" }]),
        ],
        modification_rules: [mod("set", -2)],
      } as never),
    });
    expectError(r, 400, "validation_failed", [
      "/body/pricing_rules/0/criteria/0/op",
      "/body/pricing_rules/1/criteria/0/op",
      "/body/modification_rules/0/amount",
    ]);
  });

  it("is bounded as a whole: more than 2,000 criterion values, on create or replace, is 400 too_large and stores nothing", async () => {
    const m = await srv.merchant();
    // 21 rules x 1 criterion x 100 postal codes = 2,100 values, each part within the schema's bounds.
    const codes = (r: number) => Array.from({ length: 100 }, (_, i) => String(10000 + r * 100 + i));
    const big = list("home", {
      pricing_rules: Array.from({ length: 21 }, (_, r) => ({
        criteria: [{ fact: "customer.postalcode", op: "in", value: codes(r) }],
        price: 4.9,
      })),
    } as never);
    const r = await expectUnchanged(srv, () => m.POST("/merchant/price_lists/_create", { body: big }));
    const error = expectError(r, 400, "validation_failed", ["/body"]);
    expect(error.details.find((d) => d.path === "/body")).toMatchObject({
      code: "too_large",
      message: expect.stringContaining("2100"),
    });
    // 20 rules (2,000 values) are fine; growing it past the bound by a replace is refused the same way.
    const ok = await m.POST("/merchant/price_lists/_create", {
      body: { ...big, pricing_rules: big.pricing_rules!.slice(0, 20) },
    });
    expect(ok.response.status).toBe(201);
    const replaced = await expectUnchanged(srv, () =>
      m.PUT("/merchant/price_lists/{price_list_id}", { ...id(ok.data!.id), body: big }),
    );
    expectError(replaced, 400, "validation_failed", ["/body"]);
  });
});
