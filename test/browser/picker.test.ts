// The checkout picker in a real browser, as a shop uses it: a shop page on another origin than the server loads
// /picker.js and the element with the merchant's publishable key. The customer picks by keyboard and by mouse,
// the page receives the quote, and the shop's backend check (verifyQuote) and the order endpoint accept it. The
// same page on an origin the key does not list gets nothing but the refusal. In Finnish and Swedish it shows no word of
// its English texts (one language per page, issue 56).
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { TEXTS } from "../../client/picker/texts.ts";
import { verifyQuote } from "../../client/quotes.ts";
import { seedDemo } from "../../server/demo.ts";
import { closeContexts, expectAccessible, sharedChromium } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, order, orderLine, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
type Pick = { method: string; pickup_point: { id: string; name: string } | null; price: S["Price"]; quote: string };
/** What the page heard: each `logistics-pick` event's detail, null when the choice was cleared. */
type Heard = Pick | null;

const SHOTS = `.tmp/screenshots/${process.env.TEST_DB ?? "pglite"}`;
const PICKUP = list("pickup", {
  fallback_price: 4.9,
  pricing_rules: [
    { description: "Posti", criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }], price: 3.4 },
  ],
});
/** The shop's cart, as its page describes it and as its backend knows it. */
const CART = { weight: 1200, cart_value: 59.8, item_count: 2 };
const MERCHANT = "picker-shop.example.com";

let srv: TestServer;
let m: LogisticsClient;
let browser: Browser;
let listed: Server;
let unlisted: Server;
let pickerBytes: number;
let pickerPath: string;

/** A shop's checkout page: the five lines of docs/checkout-picker.md, and a listener that keeps what it heard. */
function shopPage(lang: string, key: string) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop checkout</title>
<style>body { font-family: Georgia, serif; margin: 1rem; } logistics-shipping-picker { --logistics-accent: #7a3e00; }</style>
</head><body><main><h1>Checkout</h1>
<script src="${srv.origin}/picker.js"></script>
<logistics-shipping-picker api="${srv.baseUrl}" key="${key}" postalcode="20780" country="FI"
  weight="${CART.weight}" cart-value="${CART.cart_value}" item-count="${CART.item_count}"></logistics-shipping-picker>
<script>window.picks = []; document.addEventListener("logistics-pick", (e) => window.picks.push(e.detail));</script>
</main></body></html>`;
}

async function serveShop(page: () => string): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(page());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}
const originOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

let key = "";
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const pickerDir = path.resolve(`.tmp/picker-${process.env.TEST_DB ?? "pglite"}`);
  pickerPath = path.join(pickerDir, "picker.js");
  execFileSync(process.execPath, ["tools/build-picker.mjs", pickerPath], { stdio: "inherit" });
  pickerBytes = statSync(pickerPath).size;
  srv = await startTestServer({ pickerDir });
  await loadDemo(srv);
  m = await srv.merchant(MERCHANT);
  await configure(m, SETTINGS, [list("letter"), list("home", { fallback_price: 6.9 }), PICKUP]);
  listed = await serveShop(() => shopPage("en", key));
  unlisted = await serveShop(() => shopPage("en", key));
  const created = await m.POST("/publishable_keys/_create", { body: { origins: [originOf(listed)] } });
  key = created.data!.key;
  browser = await sharedChromium();
}, 120_000);
afterAll(async () => {
  await closeContexts(browser);
  await srv?.close();
  listed?.close();
  unlisted?.close();
});

async function open(shop: Server, width = 1024): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.once("close", () => void context.close().catch(() => undefined));
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(originOf(shop));
  return { page, errors };
}
const picks = (page: Page) => page.evaluate(() => (window as unknown as { picks: Heard[] }).picks);
/** The words (three letters or more) of a language's picker texts, the functions' with sample values. */
const wordsOf = (text: string) => (text.toLowerCase().match(/\p{L}{3,}/gu) ?? []) as string[];
const vocabulary = (lang: keyof typeof TEXTS) =>
  new Set(
    Object.values(TEXTS[lang]).flatMap((t) =>
      wordsOf(typeof t === "function" ? (t as (a: number, b: string) => string)(2, "00100") : t),
    ),
  );
/** Words of the English texts that neither the Finnish nor the Swedish use ("Posti" would be shared). */
const ENGLISH = (() => {
  const [fi, sv] = [vocabulary("fi"), vocabulary("sv")];
  return new Set([...vocabulary("en")].filter((w) => !fi.has(w) && !sv.has(w)));
})();
const englishWords = (text: string) => [...new Set(wordsOf(text).filter((w) => ENGLISH.has(w)))];
/** What a shopper reads or hears in the picker: its text (not its style sheet) and the names given to its parts. */
const pickerShows = (page: Page) =>
  page.locator("logistics-shipping-picker").evaluate((el) => {
    const parts: string[] = [];
    for (const node of el.shadowRoot!.querySelectorAll("*")) {
      if (node.matches("style")) continue;
      for (const a of ["aria-label", "placeholder", "title", "alt"]) parts.push(node.getAttribute(a) ?? "");
      for (const n of node.childNodes) if (n.nodeType === Node.TEXT_NODE) parts.push(n.textContent ?? "");
    }
    return parts.join("\n");
  });

/** The element's `value`, as the page reads it. */
const valueOf = (page: Page) =>
  page.locator("logistics-shipping-picker").evaluate((el) => (el as unknown as { value: Heard }).value);

describe("the checkout picker on a shop's page", () => {
  it("shows the merchant's prices and the nearest pickup points; keyboard and mouse pick; the quote checks out", async () => {
    const { page, errors } = await open(listed);
    const methods = page.getByRole("group", { name: "Delivery method" });
    await expect.poll(() => methods.getByRole("radio").count(), { timeout: 10_000 }).toBe(3);
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/3 delivery options for 20780/);
    expect(await methods.textContent()).toMatch(/Home delivery.*£?€6\.90/);
    expect(await methods.textContent()).toMatch(/Pickup point.*from €3\.40/);
    await page.screenshot({ path: `${SHOTS}/picker-methods.png`, fullPage: true });

    // Keyboard: from the postal code field, Tab to the methods, arrow down to pickup, Tab past the kind filter to the
    // points, Space.
    await page.getByRole("textbox", { name: "Postal code" }).focus();
    await page.keyboard.press("Tab"); // Search
    await page.keyboard.press("Tab"); // the methods group
    await page.keyboard.press("Space"); // home
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.method)).toBe("home");
    await page.keyboard.press("ArrowDown"); // letter
    await page.keyboard.press("ArrowDown"); // pickup
    const points = page.getByRole("group", { name: "Choose a pickup point" });
    await expect.poll(() => points.getByRole("radio").count()).toBeGreaterThan(1);
    // Past the filter's buttons (lockers and counters are both offered near 20780): All, Parcel lockers, Service counters.
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id ?? null)).not.toBeNull();
    const byKeyboard = (await picks(page)).at(-1)!;
    expect(byKeyboard.method).toBe("pickup");
    const first = points.getByRole("radio").first();
    expect(await first.isChecked()).toBe(true);
    // Distances and opening hours are shown, nearest first.
    expect(await points.textContent()).toMatch(/Distance: [\d.,]+ (m|km)/);
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id)).not.toBe(byKeyboard.pickup_point!.id);

    // Mouse: a click on the third point.
    const third = points.getByRole("radio").nth(2);
    const thirdName = (await third.getAttribute("value"))!;
    await third.click();
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id)).toBe(thirdName);
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Chosen: .+, €\d/);
    await page.screenshot({ path: `${SHOTS}/picker-points.png`, fullPage: true });
    await expectAccessible(page);
    expect(errors).toEqual([]);

    // The shop's backend: the quote against its own cart, offline; then the order with it.
    const picked = (await picks(page)).at(-1)!;
    const keys = (await (await fetch(`${srv.baseUrl}/quote_keys`)).json()) as S["QuoteKeySet"];
    const check = verifyQuote(picked.quote, {
      keys,
      merchantId: MERCHANT,
      cart: { ...CART, postalcode: "20780", country: "FI" },
    });
    expect(check).toMatchObject({
      valid: true,
      quote: { method: "pickup", pickup_point_id: thirdName, price: picked.price },
    });
    const lying = verifyQuote(picked.quote, { keys, merchantId: MERCHANT, cart: { ...CART, weight: 5000 } });
    expect(lying).toMatchObject({ valid: false, problem: "quote_facts" });
    const placed = await m.POST("/orders/_create", {
      body: order({
        customer: { postalcode: "20780", country: "FI" },
        products: [orderLine({ qty: 2, unit_price: 29.9, weight_g: 600 })],
        quote: picked.quote,
      }),
    });
    expect(placed.response.status, JSON.stringify(placed.error)).toBe(201);
  });

  it("clears its value and tells the page when the postal code or the cart changes after a pick, or a pick has no quote", async () => {
    const { page, errors } = await open(listed);
    const methods = page.getByRole("group", { name: "Delivery method" });
    await expect.poll(() => methods.getByRole("radio").count(), { timeout: 10_000 }).toBe(3);
    const pickHome = async () => {
      await page.getByRole("radio", { name: /Home delivery/ }).check();
      await expect.poll(() => picks(page).then((p) => p.at(-1)?.method)).toBe("home");
      expect((await valueOf(page))?.quote).toBe((await picks(page)).at(-1)!.quote);
    };

    // The customer types another postal code: the old quote (priced for 20780) would be refused.
    await pickHome();
    const heard = (await picks(page)).length;
    await page.getByRole("textbox", { name: "Postal code" }).fill("00100");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => picks(page).then((p) => p.length)).toBe(heard + 1);
    expect((await picks(page)).at(-1)).toBeNull();
    expect(await valueOf(page)).toBeNull();
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/near 00100/);
    expect(await page.getByRole("radio", { checked: true }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/picker-cleared.png`, fullPage: true });

    // The page changes the cart: the same.
    await pickHome();
    await page.locator("logistics-shipping-picker").evaluate((el) => el.setAttribute("cart-value", "99.90"));
    await expect.poll(() => picks(page).then((p) => p.at(-1))).toBeNull();
    expect(await valueOf(page)).toBeNull();

    // The pickup method before a point: no quote yet, so no choice.
    await expect.poll(() => methods.getByRole("radio").count()).toBe(3);
    await pickHome();
    await page.getByRole("radio", { name: /Pickup point/ }).check();
    await expect.poll(() => picks(page).then((p) => p.at(-1))).toBeNull();
    expect(await valueOf(page)).toBeNull();

    // The page sets the postal code (the customer's address changed): the field shows it, and Search asks for it,
    // not for the one typed before; each change, and its removal, too.
    const field = page.getByRole("textbox", { name: "Postal code" });
    const setCode = (code: string | null) =>
      page
        .locator("logistics-shipping-picker")
        .evaluate((el, c) => (c === null ? el.removeAttribute("postalcode") : el.setAttribute("postalcode", c)), code);
    expect(await field.inputValue()).toBe("00100");
    for (const code of ["20780", "00100", "20780"]) {
      await setCode(code);
      expect(await field.inputValue()).toBe(code);
      await expect.poll(() => page.getByRole("status").textContent()).toMatch(new RegExp(`near ${code}`));
    }
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/near 20780/);
    expect(await page.locator("logistics-shipping-picker").getAttribute("postalcode")).toBe("20780");
    await setCode(null);
    expect(await field.inputValue()).toBe("");
    expect(errors).toEqual([]);
  });

  it("says when pickup is missing because no point is near (Ivalo, 814 km from the nearest), in the page's language", async () => {
    const { page, errors } = await open(listed);
    const picker = page.locator("logistics-shipping-picker");
    await expect.poll(() => page.getByRole("group", { name: "Delivery method" }).getByRole("radio").count()).toBe(3);
    await picker.evaluate((el) => el.setAttribute("postalcode", "99800"));
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toMatch(/^\d delivery options for 99800\. No pickup point is near this postal code\.$/);
    expect(await page.getByRole("radio", { name: /Pickup point/ }).count()).toBe(0);
    await picker.evaluate((el) => el.setAttribute("lang", "fi"));
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toMatch(/Tämän postinumeron lähellä ei ole noutopistettä\.$/);
    expect(errors).toEqual([]);
  });

  it("hides the shop's fallback words once picker.js has loaded, and leaves them when it cannot load", async () => {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<script src="${srv.origin}/picker.js"></script>
<logistics-shipping-picker api="${srv.baseUrl}" key="${key}" postalcode="20780" country="FI">
  <p>Delivery options could not be shown: choose home delivery below.</p>
</logistics-shipping-picker></body></html>`;
    const shop = await serveShop(() => html);
    const fallback = (page: Page) => page.getByText("Delivery options could not be shown: choose home delivery below.");
    try {
      for (const loads of [true, false]) {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          if (!loads) await page.route("**/picker.js", (r) => r.abort("connectionfailed"));
          await page.goto(originOf(shop));
          if (loads) {
            await expect.poll(() => page.getByRole("textbox", { name: "Postal code" }).count()).toBe(1);
            expect(await fallback(page).isVisible()).toBe(false);
          } else {
            expect(await fallback(page).isVisible()).toBe(true);
          }
        } finally {
          await context.close();
        }
      }
    } finally {
      shop.close();
    }
  });

  it("searches by postal code, speaks the page's language, and fits a 320 px screen", async () => {
    expect(ENGLISH.size).toBeGreaterThan(30);
    expect(englishWords("Toimitustapa Posti Pickup point")).toEqual(["pickup", "point"]);
    const { page, errors } = await open(listed, 320);
    const methods = page.getByRole("group", { name: "Delivery method" });
    await expect.poll(() => methods.getByRole("radio").count(), { timeout: 10_000 }).toBe(3);
    await page.getByRole("textbox", { name: "Postal code" }).fill("00100");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/near 00100/);
    await page.getByRole("radio", { name: /Pickup point/ }).check();
    await expect
      .poll(() => page.getByRole("group", { name: "Choose a pickup point" }).getByRole("radio").count())
      .toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.screenshot({ path: `${SHOTS}/picker-320.png`, fullPage: true });
    await expectAccessible(page);
    for (const [lang, legend, home, points, hours] of [
      [
        "fi",
        "Toimitustapa",
        /Kotiinkuljetus.*6,90\s€/,
        "Valitse noutopiste",
        /Aukioloajat: (ma|ti|ke|to|pe|la|su)[–\s]/,
      ],
      [
        "sv",
        "Leveranssätt",
        /Hemleverans.*6,90\s€/,
        "Välj utlämningsställe",
        /Öppettider: (mån|tis|ons|tors|fre|lör|sön)[–\s]/,
      ],
    ] as const) {
      await page.locator("logistics-shipping-picker").evaluate((el, l) => el.setAttribute("lang", l), lang);
      const group = page.getByRole("group", { name: legend });
      await expect.poll(() => group.getByRole("radio").count(), { timeout: 10_000 }).toBe(3);
      expect(await group.textContent()).toMatch(home);
      // Opening hours of the directory's common form in the page's language: no English day names.
      const listed = (await page.getByRole("group", { name: points }).textContent()) ?? "";
      expect(listed).toMatch(hours);
      expect(listed).not.toMatch(/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/);
      // One language: nothing the picker shows is a word of its English texts that Finnish and Swedish lack.
      expect(englishWords(await pickerShows(page))).toEqual([]);
    }
    expect(errors).toEqual([]);
  });

  it("on an origin the key does not list gets nothing but the refusal: no options, no Try again", async () => {
    const { page } = await open(unlisted);
    await expect
      .poll(() => page.getByRole("status").textContent(), { timeout: 10_000 })
      .toBe("Delivery options cannot be shown on this page. Please tell the shop.");
    expect(await page.getByRole("radio").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Try again" }).count()).toBe(0);
    // What the browser can read: the refusal, naming the page's origin; never the options.
    const direct = await page.evaluate(
      async ([api, k]) => {
        const r = await fetch(`${api}/shipping_options?postalcode=20780&country=FI`, {
          headers: { Authorization: `Bearer ${k}` },
        });
        return { status: r.status, body: (await r.json()) as { code: string; message: string; options?: unknown } };
      },
      [srv.baseUrl, key] as const,
    );
    expect(direct.status).toBe(403);
    expect(direct.body.code).toBe("access_denied");
    expect(direct.body.message).toContain(originOf(unlisted));
    expect(direct.body.options).toBeUndefined();
  });

  it("the demo shop page of `npm start` shows the demo merchant's options and what the page received", async () => {
    const demo = await startTestServer({ pickerDir: path.dirname(pickerPath), demoPages: true });
    try {
      await seedDemo(demo.handle.db);
      const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${demo.origin}/demo/checkout`);
      const methods = page.getByRole("group", { name: "Delivery method" });
      await expect.poll(() => methods.getByRole("radio").count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await page.getByRole("radio", { name: /Pickup point/ }).check();
      await page.getByRole("group", { name: "Choose a pickup point" }).getByRole("radio").first().check();
      await expect
        .poll(() => page.locator("#picked").textContent())
        .toMatch(/"method": "pickup"[\s\S]*"merchant_id": "demo.example.com"/);
      await page.screenshot({ path: `${SHOTS}/picker-demo.png`, fullPage: true });
      await expectAccessible(page);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await demo.close();
    }
  });

  it("is one small script (its size is in docs/benchmarks.md)", () => {
    expect(pickerBytes).toBeLessThan(16_000);
  });
});
