// The checkout picker's help with choosing (issue 51 item 3), in a real browser on a shop's page: the delivery dates
// of each option and pickup point from the answer's `delivery_estimate`, in the page's language, and nothing where
// the answer has none. The server's "now" is a test clock: Tuesday 1 December 2026, 10:00 in Helsinki. Every
// expected date below is worked out by hand from the merchant's delivery times (December 2026 starts on a Tuesday).
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { closeContexts, expectAccessible, sharedChromium } from "../helpers/browser.ts";
import { TestClock } from "../helpers/clock.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, pickupPoints, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
const DB = process.env.TEST_DB ?? "pglite";
const SHOTS = `.tmp/screenshots/${DB}`;
const clock = new TestClock("2026-12-01T10:00:00+02:00");

/**
 * Home: sent the next working day, 1-2 days on the way: Thu 3 - Fri 4 Dec. Letter: sent today (before 12:00),
 * one day on the way: Wed 2 Dec, one date. Pickup has no times of its own, so only Matkahuolto's points get dates:
 * sent today, 2-4 days: Thu 3 - Mon 7 Dec (the weekend does not count); the other branches' points get none.
 */
const DATED: S["ShippingSettingsInput"] = {
  ...SETTINGS,
  time_zone: "Europe/Helsinki",
  delivery_times: {
    home: { handling_days: 1, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" },
    letter: { handling_days: 0, transit_days_min: 1, transit_days_max: 1, cutoff: "12:00" },
    pickup_branches: {
      "fi.matkahuolto": { handling_days: 0, transit_days_min: 2, transit_days_max: 4, cutoff: "12:00" },
    },
  },
};
const MERCHANT = "picker-choice.example.com";
const CART = { weight: 500, cart_value: 20, item_count: 1 };

let srv: TestServer;
let m: LogisticsClient;
let browser: Browser;
let shop: Server;
let key = "";
/** The shop page's language, read by the page server when the page is opened. */
let lang = "en";

function shopPage() {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop checkout</title></head>
<body><main><h1>Checkout</h1><script src="${srv.origin}/picker.js"></script>
<logistics-shipping-picker api="${srv.baseUrl}" key="${key}" postalcode="20780" country="FI" weight="${CART.weight}"
  cart-value="${CART.cart_value}" item-count="${CART.item_count}"></logistics-shipping-picker>
<script>window.picks = []; document.addEventListener("logistics-pick", (e) => window.picks.push(e.detail));</script>
</main></body></html>`;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const pickerDir = path.resolve(`.tmp/picker-choice-${DB}`);
  execFileSync(process.execPath, ["tools/build-picker.mjs", path.join(pickerDir, "picker.js")], { stdio: "inherit" });
  srv = await startTestServer({ pickerDir, now: clock.now });
  await loadDemo(srv);
  m = await srv.merchant(MERCHANT);
  await configure(m, DATED, [list("letter"), list("home"), list("pickup")]);
  shop = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(shopPage());
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  const created = await m.POST("/publishable_keys/_create", { body: { origins: [originOf(shop)] } });
  key = created.data!.key;
  browser = await sharedChromium();
}, 120_000);
afterAll(async () => {
  await closeContexts(browser);
  await srv?.close();
  shop?.close();
});

const originOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

async function open(width = 1024): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.once("close", () => void context.close().catch(() => undefined));
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(originOf(shop));
  return { page, errors };
}

/** The text of the option (a method or a pickup point) whose radio has `value`. */
const optionText = (page: Page, value: string) =>
  page.locator(`logistics-shipping-picker label.option:has(input[value="${value}"])`).textContent();

/** The ids of the demo directory's points near 20780 that the merchant's answer lists, by branch. */
async function pointsByBranch(): Promise<Record<string, string[]>> {
  const r = await m.GET("/shipping_options", { params: { query: { postalcode: "20780", country: "FI", ...CART } } });
  const out: Record<string, string[]> = {};
  for (const p of pickupPoints(r.data!.options)) (out[p.branch] ??= []).push(p.id);
  return out;
}

describe("the picker's delivery dates", () => {
  it("shows each option's dates in the page's language (a range, or one date), and none where the answer has none", async () => {
    const branches = await pointsByBranch();
    const undated = Object.entries(branches).flatMap(([branch, ids]) => (branch === "fi.matkahuolto" ? [] : ids));
    expect(branches["fi.matkahuolto"]?.length).toBeGreaterThan(0);
    expect(undated.length).toBeGreaterThan(0);

    for (const [language, legend, home, letter, points, matkahuolto] of [
      [
        "en",
        "Delivery method",
        "Delivered Thu 3 Dec – Fri 4 Dec",
        "Delivered Wed 2 Dec",
        "Choose a pickup point",
        "Delivered Thu 3 Dec – Mon 7 Dec",
      ],
      [
        "fi",
        "Toimitustapa",
        "Perillä to 3.12. – pe 4.12.",
        "Perillä ke 2.12.",
        "Valitse noutopiste",
        "Perillä to 3.12. – ma 7.12.",
      ],
      [
        "sv",
        "Leveranssätt",
        "Levereras tors 3 dec. – fre 4 dec.",
        "Levereras ons 2 dec.",
        "Välj utlämningsställe",
        "Levereras tors 3 dec. – mån 7 dec.",
      ],
    ] as const) {
      lang = language;
      const { page, errors } = await open();
      const methods = page.getByRole("group", { name: legend });
      await expect.poll(() => methods.getByRole("radio").count(), { timeout: 15_000 }).toBe(3);
      expect(await optionText(page, "home")).toContain(home);
      expect(await optionText(page, "letter")).toContain(letter);
      // The pickup method has no estimate of its own (each point has its own): none is made up for it.
      const word = home.split(" ")[0]!;
      expect(await optionText(page, "pickup")).not.toContain(word);

      await methods.getByRole("radio").nth(2).check();
      const listed = page.getByRole("group", { name: points });
      await expect.poll(() => listed.getByRole("radio").count(), { timeout: 15_000 }).toBeGreaterThan(1);
      for (const id of branches["fi.matkahuolto"]!) expect(await optionText(page, id)).toContain(matkahuolto);
      for (const id of undated) expect(await optionText(page, id)).not.toContain(word);
      await page.screenshot({ path: `${SHOTS}/picker-dates-${language}.png`, fullPage: true });
      await expectAccessible(page);
      expect(errors).toEqual([]);
      await page.close();
    }
    lang = "en";
  });
});

const CHOICE_KEY = "logistics-shipping-picker:choice";
/** What the page heard since it was loaded: each `logistics-pick` event's detail. */
const picks = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { picks: ({ method: string; pickup_point: { id: string } | null } | null)[] }).picks,
  );
const stored = (page: Page) => page.evaluate((k) => localStorage.getItem(k), CHOICE_KEY);

describe("the shopper's last choice, remembered on the shop's origin", () => {
  it("When the shopper chose a pickup point (then home) and the page is loaded again, then that choice is chosen again, with its quote", async () => {
    const { page, errors } = await open();
    const methods = page.getByRole("group", { name: "Delivery method" });
    await expect.poll(() => methods.getByRole("radio").count(), { timeout: 15_000 }).toBe(3);
    expect(await stored(page)).toBeNull();
    await page.getByRole("radio", { name: /Pickup point/ }).check();
    const points = page.getByRole("group", { name: "Choose a pickup point" });
    await expect.poll(() => points.getByRole("radio").count(), { timeout: 15_000 }).toBeGreaterThan(2);
    const third = points.getByRole("radio").nth(2);
    const id = (await third.getAttribute("value"))!;
    await third.check();
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id)).toBe(id);
    // Only the point's id is kept.
    expect(await stored(page)).toBe(id);

    await page.reload();
    await expect
      .poll(() => points.getByRole("radio", { checked: true }).getAttribute("value"), { timeout: 15_000 })
      .toBe(id);
    expect(await page.getByRole("radio", { name: /Pickup point/ }).isChecked()).toBe(true);
    await expect.poll(() => picks(page)).toHaveLength(1);
    const [heard] = await picks(page);
    expect(heard).toMatchObject({ method: "pickup", pickup_point: { id }, quote: expect.any(String) });
    const value = await page
      .locator("logistics-shipping-picker")
      .evaluate((el) => (el as unknown as { value: { pickup_point: { id: string } | null } | null }).value);
    expect(value?.pickup_point?.id).toBe(id);
    await page.screenshot({ path: `${SHOTS}/picker-remembered.png`, fullPage: true });
    await expectAccessible(page);

    await page.getByRole("radio", { name: /Home delivery/ }).check();
    await expect.poll(() => stored(page)).toBe("home");
    await page.reload();
    await expect
      .poll(() => page.getByRole("radio", { name: /Home delivery/ }).isChecked(), { timeout: 15_000 })
      .toBe(true);
    await expect.poll(() => picks(page).then((p) => p.map((d) => d?.method))).toEqual(["home"]);
    expect(await page.getByRole("group", { name: "Choose a pickup point" }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("When the remembered point is not offered, then nothing is chosen and nothing is said", async () => {
    const { page, errors } = await open();
    const methods = page.getByRole("group", { name: "Delivery method" });
    await expect.poll(() => methods.getByRole("radio").count(), { timeout: 15_000 }).toBe(3);
    for (const stale of ["0123456789abcdef01234567", "pickup", "{}"]) {
      await page.evaluate(([k, v]) => localStorage.setItem(k!, v!), [CHOICE_KEY, stale]);
      await page.reload();
      await expect.poll(() => methods.getByRole("radio").count(), { timeout: 15_000 }).toBe(3);
      await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^3 delivery options for 20780\./);
      expect(await page.getByRole("radio", { checked: true }).count()).toBe(0);
      expect(await picks(page)).toEqual([]);
      expect(await stored(page)).toBe(stale);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it("When the browser refuses storage (private mode), then the picker works as before and remembers nothing", async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      Object.defineProperty(window, "localStorage", {
        get() {
          throw new DOMException("The operation is insecure.", "SecurityError");
        },
      });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(originOf(shop));
    const methods = page.getByRole("group", { name: "Delivery method" });
    await expect.poll(() => methods.getByRole("radio").count(), { timeout: 15_000 }).toBe(3);
    await page.getByRole("radio", { name: /Home delivery/ }).check();
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.method)).toBe("home");
    await page.reload();
    await expect.poll(() => methods.getByRole("radio").count(), { timeout: 15_000 }).toBe(3);
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^3 delivery options for 20780\./);
    expect(await page.getByRole("radio", { checked: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
