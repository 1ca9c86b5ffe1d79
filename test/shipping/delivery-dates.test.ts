// Delivery estimates (issue 51 item 1): the merchant's time zone and each method's delivery times give every
// available option and priced pickup point the earliest and latest delivery dates of an order placed "now" (the
// test clock). Every expected date below is worked out by hand from a calendar: December 2026 starts on a Tuesday;
// 6 December 2027 (Finland's Independence Day) is a Monday, a working day in Sweden.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import type { QuotePayload, verifyQuote as VerifyQuote } from "../../client/quotes.ts";
import { TestClock } from "../helpers/clock.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { configure, createOrder, list, loadDemo, order, pickupPoints, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
const SHOP = "https://shop.dates.example";
const clock = new TestClock("2026-12-01T10:00:00+02:00");

const TIMES: S["DeliveryTimesByMethod"] = {
  home: { handling_days: 1, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" },
  pickup: { handling_days: 0, transit_days_min: 1, transit_days_max: 3, cutoff: "12:00" },
  pickup_branches: {
    "fi.matkahuolto": { handling_days: 0, transit_days_min: 2, transit_days_max: 4, cutoff: "12:00" },
  },
};
const DATED: S["ShippingSettingsInput"] = {
  ...SETTINGS,
  countries: ["FI", "SE"],
  time_zone: "Europe/Helsinki",
  delivery_times: TIMES,
};

let srv: TestServer;
let m: LogisticsClient;
let page: LogisticsClient;

useTestServer(
  async (s) => {
    srv = s;
    await loadDemo(srv);
    m = await srv.merchant();
    await configure(m, DATED, [list("letter"), list("home"), list("pickup")]);
    const key = (await m.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!;
    page = createLogisticsClient({ baseUrl: srv.baseUrl, publishableKey: key.key, headers: { Origin: SHOP } });
  },
  { now: clock.now },
);

async function options(
  client: LogisticsClient,
  at: string,
  query: Partial<{ country: "FI" | "SE"; postalcode: string }> = {},
) {
  clock.set(at);
  const r = await client.GET("/shipping_options", {
    params: { query: { postalcode: "20780", country: "FI", weight: 500, ...query } },
  });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return r.data!;
}
const estimateOf = (option: unknown) => (option as { delivery_estimate?: S["DeliveryEstimate"] }).delivery_estimate;
const homeDates = async (at: string, query = {}) => estimateOf((await options(m, at, query)).options.home);

describe("delivery estimates of a merchant in Helsinki (home: 1 handling day, 1-2 transit days, cut-off 14:00)", () => {
  it("When an order is placed on Tuesday 1 Dec at 13:59, before the cut-off, then it counts from Tuesday: Thu 3 - Fri 4", async () => {
    expect(await homeDates("2026-12-01T13:59:00+02:00")).toEqual({ earliest: "2026-12-03", latest: "2026-12-04" });
  });

  it("When it is placed at 14:00, the cut-off, then it counts from Wednesday and the weekend is skipped: Fri 4 - Mon 7", async () => {
    expect(await homeDates("2026-12-01T14:00:00+02:00")).toEqual({ earliest: "2026-12-04", latest: "2026-12-07" });
  });

  it("When it is placed on Saturday 5 Dec, then it counts from Monday 7: Wed 9 - Thu 10", async () => {
    expect(await homeDates("2026-12-05T10:00:00+02:00")).toEqual({ earliest: "2026-12-09", latest: "2026-12-10" });
  });

  it("When Monday 6 Dec 2027 is Finland's Independence Day, then a Finnish customer's parcel moves on Tuesday; a Swedish customer's on Monday", async () => {
    // Friday 3 Dec 2027 10:00: counts from Friday, sent on the next moving day.
    expect(await homeDates("2027-12-03T10:00:00+02:00")).toEqual({ earliest: "2027-12-08", latest: "2027-12-09" });
    expect(await homeDates("2027-12-03T10:00:00+02:00", { country: "SE", postalcode: "11122" })).toEqual({
      earliest: "2027-12-07",
      latest: "2027-12-08",
    });
  });

  it("When the instant is 13:30 in Stockholm but 14:30 in Helsinki, then the merchant's zone decides: past the cut-off in Helsinki", async () => {
    const instant = "2026-12-01T12:30:00Z";
    expect(await homeDates(instant)).toEqual({ earliest: "2026-12-04", latest: "2026-12-07" });
    const stockholm = await srv.merchant();
    await configure(stockholm, { ...DATED, time_zone: "Europe/Stockholm" }, [list("home")]);
    expect(estimateOf((await options(stockholm, instant)).options.home)).toEqual({
      earliest: "2026-12-03",
      latest: "2026-12-04",
    });
  });

  it("When a pickup point's branch has times of its own, then its points use them, the others the pickup method's", async () => {
    // Tue 1 Dec 13:59 is past pickup's 12:00 cut-off: counts from Wed 2, sent that day (no handling days).
    const answer = await options(m, "2026-12-01T13:59:00+02:00");
    const points = pickupPoints(answer.options);
    const byBranch = (branch: string) => points.filter((p) => p.branch === branch).map((p) => p.delivery_estimate);
    expect(byBranch("fi.posti").length).toBeGreaterThan(0);
    expect(byBranch("fi.matkahuolto").length).toBeGreaterThan(0);
    for (const e of byBranch("fi.posti")) expect(e).toEqual({ earliest: "2026-12-03", latest: "2026-12-07" });
    for (const e of byBranch("fi.matkahuolto")) expect(e).toEqual({ earliest: "2026-12-04", latest: "2026-12-08" });
    // No other branch is in the demo directory near Kaarina: every point above carried one of the two.
    expect(points.every((p) => p.delivery_estimate !== undefined)).toBe(true);
  });

  it("When a method has no delivery times (letter), or the merchant no time zone, then no estimate is given", async () => {
    const answer = await options(m, "2026-12-01T10:00:00+02:00");
    expect(answer.options.letter.available).toBe(true);
    expect(estimateOf(answer.options.letter)).toBeUndefined();
    // Delivery times without a time zone: no estimate, never a made-up one.
    const undated = await srv.merchant();
    await configure(undated, { ...SETTINGS, delivery_times: TIMES }, [list("home"), list("pickup")]);
    const none = await options(undated, "2026-12-01T10:00:00+02:00");
    expect(JSON.stringify(none)).not.toContain("delivery_estimate");
  });

  it("When the options are asked for an order, or previewed with draft settings, then they carry the same estimates", async () => {
    const id = await createOrder(m, order());
    clock.set("2026-12-01T13:59:00+02:00");
    const r = await m.GET("/orders/{order_id}/shipping_options", { params: { path: { order_id: id } } });
    expect(estimateOf(r.data!.options.home)).toEqual({ earliest: "2026-12-03", latest: "2026-12-04" });
    const preview = await m.POST("/shipping_options/_preview", {
      body: {
        postalcode: "20780",
        settings: { ...DATED, delivery_times: { home: { ...TIMES.home!, handling_days: 0 } } },
      },
    });
    expect(preview.response.status, JSON.stringify(preview.error)).toBe(200);
    expect(estimateOf(preview.data!.options.home)).toEqual({ earliest: "2026-12-02", latest: "2026-12-03" });
  });

  it("When the settings are read back, then the time zone and the delivery times are as saved", async () => {
    const r = await m.GET("/merchant/shipping_settings");
    expect(r.data).toMatchObject({ time_zone: "Europe/Helsinki", delivery_times: TIMES });
    const fresh = await srv.merchant();
    expect((await fresh.GET("/merchant/shipping_settings")).data).toMatchObject({
      time_zone: null,
      delivery_times: {},
    });
  });
});

describe("a checkout page's quotes", () => {
  const decode = (quote: string) =>
    JSON.parse(Buffer.from(quote.split(".")[1]!, "base64url").toString()) as QuotePayload;

  it("When a page asks, then each quote carries its option's estimate, the same dates as the answer", async () => {
    const answer = await options(page, "2026-12-01T13:59:00+02:00");
    const home = answer.options.home as { quote: string; delivery_estimate: S["DeliveryEstimate"] };
    expect(decode(home.quote).delivery_estimate).toEqual({ earliest: "2026-12-03", latest: "2026-12-04" });
    expect(decode(home.quote).delivery_estimate).toEqual(home.delivery_estimate);
    for (const p of pickupPoints(answer.options))
      expect(decode(p.quote!).delivery_estimate).toEqual(p.delivery_estimate);
    const letter = answer.options.letter as { quote: string };
    expect(Object.keys(decode(letter.quote))).not.toContain("delivery_estimate");
  });

  // The client's verifyQuote as released before quotes carried estimates (the commit before this change), taken
  // from the repository's history: a shop's backend that has not upgraded must still accept the new quotes.
  const before = mkdtempSync(path.join(tmpdir(), "verify-quote-before-"));
  afterAll(() => rmSync(before, { recursive: true, force: true }));
  const PREVIOUS = "7773db8dd36565b3b63fa5bcad59c42e021db711";
  async function previousVerifyQuote(): Promise<typeof VerifyQuote> {
    for (const file of ["server/quotes/format.ts", "server/shared/postal-codes.ts"]) {
      const text = execFileSync("git", ["show", `${PREVIOUS}:${file}`], { cwd: import.meta.dirname, encoding: "utf8" });
      mkdirSync(path.dirname(path.join(before, file)), { recursive: true });
      writeFileSync(path.join(before, file), text);
    }
    return ((await import(path.join(before, "server/quotes/format.ts"))) as { verifyQuote: typeof VerifyQuote })
      .verifyQuote;
  }

  it("When a backend checks a new quote with the previous release's verifyQuote, then it accepts it", async () => {
    const verify = await previousVerifyQuote();
    const answer = await options(page, "2026-12-01T13:59:00+02:00");
    const quote = (answer.options.home as { quote: string }).quote;
    expect(decode(quote).delivery_estimate).toBeDefined();
    const keys = (await (await fetch(`${srv.baseUrl}/quote_keys`)).json()) as S["QuoteKeySet"];
    const check = verify(quote, {
      keys,
      merchantId: decode(quote).merchant_id,
      cart: { weight: 500, postalcode: "20780", country: "FI" },
      now: clock.now(),
    });
    expect(check).toMatchObject({ valid: true });
  });
});

describe("bad delivery settings", () => {
  const bad: [string, Partial<S["ShippingSettingsInput"]>, string][] = [
    ["an unknown time zone", { time_zone: "Europe/Turku" }, "/body/time_zone"],
    ["a time zone that is not a name", { time_zone: "+02:00" }, "/body/time_zone"],
    [
      "transit days most below least",
      { delivery_times: { home: { handling_days: 0, transit_days_min: 3, transit_days_max: 2, cutoff: "14:00" } } },
      "/body/delivery_times/home/transit_days_max",
    ],
    [
      "a cut-off of 24:00",
      { delivery_times: { home: { handling_days: 0, transit_days_min: 1, transit_days_max: 2, cutoff: "24:00" } } },
      "/body/delivery_times/home/cutoff",
    ],
    [
      "no moving days",
      {
        delivery_times: {
          home: { handling_days: 0, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00", moving_days: [] },
        },
      },
      "/body/delivery_times/home/moving_days",
    ],
    [
      "a negative handling time",
      { delivery_times: { home: { handling_days: -1, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" } } },
      "/body/delivery_times/home/handling_days",
    ],
    [
      "a branch that is not a branch",
      {
        delivery_times: {
          pickup_branches: { Posti: { handling_days: 0, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" } },
        },
      },
      "/body/delivery_times/pickup_branches",
    ],
  ];
  it.each(bad)(
    "When a merchant saves %s, then 400 validation_failed names it and nothing changes",
    async (_n, change, at) => {
      const r = await expectUnchanged(srv, () =>
        m.PUT("/merchant/shipping_settings", { body: { ...DATED, ...change } }),
      );
      expectError(r, 400, "validation_failed", [at]);
    },
  );

  it("When a preview's draft settings have an unknown time zone, then 400 names /body/settings/time_zone", async () => {
    const r = await m.POST("/shipping_options/_preview", {
      body: { postalcode: "20780", settings: { ...DATED, time_zone: "Mars/Olympus" } },
    });
    expectError(r, 400, "validation_failed", ["/body/settings/time_zone"]);
  });
});

describe("a preview of draft delivery times (the portal's pricing area)", () => {
  const preview = (body: S["DeliveryDatesPreview"]) => m.POST("/merchant/delivery_dates/_preview", { body });

  it("When a merchant previews draft times on Tuesday 1 Dec at 13:59, then each method and branch gets the dates shipping options would give, and nothing is saved", async () => {
    clock.set("2026-12-01T13:59:00+02:00");
    const r = await expectUnchanged(srv, () =>
      preview({
        time_zone: "Europe/Helsinki",
        delivery_times: { ...TIMES, home: { ...TIMES.home!, cutoff: "13:00" } },
      }),
    );
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    // Past the draft's 13:00 cut-off: counts from Wed 2, sent Thu 3, delivered Fri 4 - Mon 7.
    expect(r.data).toEqual({
      ordered_at: "2026-12-01T13:59:00+02:00",
      country: "FI",
      estimates: {
        home: { earliest: "2026-12-04", latest: "2026-12-07" },
        pickup: { earliest: "2026-12-03", latest: "2026-12-07" },
        pickup_branches: { "fi.matkahuolto": { earliest: "2026-12-04", latest: "2026-12-08" } },
      },
    });
  });

  it("When the customer is in Sweden on Finland's Independence Day, then the Swedish calendar decides", async () => {
    clock.set("2027-12-03T10:00:00+02:00");
    const r = await preview({ time_zone: "Europe/Helsinki", delivery_times: { home: TIMES.home! }, country: "SE" });
    expect(r.data).toEqual({
      ordered_at: "2027-12-03T10:00:00+02:00",
      country: "SE",
      estimates: { home: { earliest: "2027-12-07", latest: "2027-12-08" } },
    });
  });

  it.each([
    ["an unknown time zone", { time_zone: "Europe/Turku", delivery_times: TIMES }, "/body/time_zone"],
    [
      "transit days most below least",
      {
        time_zone: "Europe/Helsinki",
        delivery_times: { home: { handling_days: 0, transit_days_min: 3, transit_days_max: 2, cutoff: "14:00" } },
      },
      "/body/delivery_times/home/transit_days_max",
    ],
    ["no time zone", { delivery_times: TIMES }, "/body/time_zone"],
  ])("When the draft has %s, then 400 validation_failed names it and nothing changes", async (_n, body, at) => {
    const r = await expectUnchanged(srv, () => preview(body as S["DeliveryDatesPreview"]));
    expectError(r, 400, "validation_failed", [at]);
  });
});
