// The checkout picker's filter between parcel lockers and staffed counters (issue 51 item 3), in a real browser on a
// shop's page, at desktop and phone width: shown when the answer offers both kinds (the demo directory's points near
// 20780: a Posti parcel locker among counters), narrowing the list; worked by keyboard, its state said by pressed
// buttons in a named group; in the page's language; and absent when only one kind is offered.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { closeContexts, expectAccessible, sharedChromium, startShop } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, pickupPoints, SETTINGS } from "../helpers/shipping.ts";

const DB = process.env.TEST_DB ?? "pglite";
const SHOTS = `.tmp/screenshots/${DB}`;

let srv: TestServer;
let browser: Browser;
let shop: Awaited<ReturnType<typeof startShop>>;
/** What the shop page shows: its language and the publishable key its picker asks with. */
const page = { lang: "en", key: "" };
const keys: { both: string; counters: string } = { both: "", counters: "" };
/** The demo points near 20780 the first merchant's answer offers, by kind. */
let offered: { locker: string[]; counter: string[]; all: string[] };

const shopPage = () => `<!doctype html><html lang="${page.lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop checkout</title></head>
<body><main><h1>Checkout</h1><script src="${srv.origin}/picker.js"></script>
<logistics-shipping-picker api="${srv.baseUrl}" key="${page.key}" postalcode="20780" country="FI" weight="500"></logistics-shipping-picker>
</main></body></html>`;

async function merchantKey(id: string, limit: number): Promise<{ m: LogisticsClient; key: string }> {
  const m = await srv.merchant(id);
  await configure(m, { ...SETTINGS, pickup_points_limit: limit }, [list("letter"), list("home"), list("pickup")]);
  const created = await m.POST("/publishable_keys/_create", { body: { origins: [shop.origin] } });
  return { m, key: created.data!.key };
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const pickerDir = path.resolve(`.tmp/picker-kind-${DB}`);
  execFileSync(process.execPath, ["tools/build-picker.mjs", path.join(pickerDir, "picker.js")], { stdio: "inherit" });
  srv = await startTestServer({ pickerDir });
  await loadDemo(srv);
  shop = await startShop(shopPage);
  const both = await merchantKey("picker-kind.example.com", 10);
  // The two nearest points to 20780 are counters (K-Market Kaarina Oskari, S-market Kaarina): one kind only.
  keys.counters = (await merchantKey("picker-counters.example.com", 2)).key;
  keys.both = both.key;
  const r = await both.m.GET("/shipping_options", {
    params: { query: { postalcode: "20780", country: "FI", weight: 500 } },
  });
  const points = pickupPoints(r.data!.options);
  offered = {
    locker: points.filter((p) => p.kind === "locker").map((p) => p.id),
    counter: points.filter((p) => p.kind === "counter").map((p) => p.id),
    all: points.map((p) => p.id),
  };
  browser = await sharedChromium();
}, 120_000);
afterAll(async () => {
  await closeContexts(browser);
  await srv?.close();
  shop?.close();
});

async function open(width: number, key: string, lang = "en"): Promise<{ page: Page; errors: string[] }> {
  Object.assign(page, { key, lang });
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const p = await context.newPage();
  p.once("close", () => void context.close().catch(() => undefined));
  const errors: string[] = [];
  p.on("pageerror", (e) => errors.push(e.message));
  await p.goto(shop.origin);
  return { page: p, errors };
}

/** The values (point ids) of the listed pickup points, in order. */
const listed = (p: Page, legend = "Choose a pickup point") =>
  p
    .getByRole("group", { name: legend })
    .getByRole("radio")
    .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
/** The name of the focused element inside the picker's shadow root. */
const focused = (p: Page) =>
  p.locator("logistics-shipping-picker").evaluate((el) => el.shadowRoot!.activeElement?.textContent ?? null);

describe("the picker's filter between parcel lockers and service counters", () => {
  it("the demo answer near 20780 offers both kinds", () => {
    expect(offered.locker).toEqual(["5128c02151fe5a6eef7b3338"]); // Posti Pakettiautomaatti S-market Kaarina
    expect(offered.counter.length).toBeGreaterThan(3);
    expect(offered.all).toHaveLength(10);
  });

  for (const width of [1280, 375]) {
    it(`narrows the list by keyboard, the shown kind a pressed button, at ${width} px`, async () => {
      const { page: p, errors } = await open(width, keys.both);
      await p.getByRole("radio", { name: /Pickup point/ }).check({ timeout: 15_000 });
      await expect.poll(() => listed(p), { timeout: 15_000 }).toEqual(offered.all);
      const filter = p.getByRole("group", { name: "Pickup point type" });
      const button = (name: string) => filter.getByRole("button", { name, exact: true });
      expect(await filter.getByRole("button").allTextContents()).toEqual(["All", "Parcel lockers", "Service counters"]);
      expect(await button("All").getAttribute("aria-pressed")).toBe("true");

      // Tab from the "All" button to "Parcel lockers", Enter: the lockers only, the keyboard still on the button.
      await button("All").focus();
      await p.keyboard.press("Tab");
      expect(await focused(p)).toBe("Parcel lockers");
      await p.keyboard.press("Enter");
      await expect.poll(() => listed(p)).toEqual(offered.locker);
      expect(await button("Parcel lockers").getAttribute("aria-pressed")).toBe("true");
      expect(await button("All").getAttribute("aria-pressed")).toBe("false");
      expect(await focused(p)).toBe("Parcel lockers");
      await p.screenshot({ path: `${SHOTS}/picker-kind-lockers-${width}.png`, fullPage: true });
      await expectAccessible(p);

      // Space on "Service counters": the counters only; choosing one of them is the usual choice.
      await p.keyboard.press("Tab");
      await p.keyboard.press("Space");
      await expect.poll(() => listed(p)).toEqual(offered.counter);
      expect(await focused(p)).toBe("Service counters");
      await p
        .getByRole("radio", { name: /S-market Kaarina/ })
        .first()
        .check();
      await expect.poll(() => p.getByRole("status").textContent()).toMatch(/^Chosen: S-market Kaarina/);
      await p.screenshot({ path: `${SHOTS}/picker-kind-counters-${width}.png`, fullPage: true });
      await expectAccessible(p);

      await button("All").click();
      await expect.poll(() => listed(p)).toEqual(offered.all);
      expect(errors).toEqual([]);
      await p.close();
    });
  }

  it("speaks the page's language (Finnish, Swedish)", async () => {
    for (const [lang, method, legend, show, words] of [
      [
        "fi",
        /Noutopiste/,
        "Valitse noutopiste",
        "Noutopisteen tyyppi",
        ["Kaikki", "Pakettiautomaatit", "Palvelupisteet"],
      ],
      [
        "sv",
        /Utlämningsställe/,
        "Välj utlämningsställe",
        "Typ av utlämningsställe",
        ["Alla", "Paketautomater", "Serviceställen"],
      ],
    ] as const) {
      const { page: p, errors } = await open(375, keys.both, lang);
      await p.getByRole("radio", { name: method }).check({ timeout: 15_000 });
      await expect.poll(() => listed(p, legend), { timeout: 15_000 }).toEqual(offered.all);
      const filter = p.getByRole("group", { name: show });
      expect(await filter.getByRole("button").allTextContents()).toEqual(words);
      // Long Finnish and Swedish words wrap inside the points' box at phone width, never past it.
      const box = (await p.getByRole("group", { name: legend }).boundingBox())!;
      for (const b of await filter.getByRole("button").all()) {
        const r = (await b.boundingBox())!;
        expect(r.x + r.width).toBeLessThanOrEqual(box.x + box.width);
      }
      await filter.getByRole("button", { name: words[1] }).click();
      await expect.poll(() => listed(p, legend)).toEqual(offered.locker);
      await p.screenshot({ path: `${SHOTS}/picker-kind-${lang}-375.png`, fullPage: true });
      await expectAccessible(p);
      expect(errors).toEqual([]);
      await p.close();
    }
  });

  it("is not shown when the answer offers one kind only", async () => {
    const { page: p, errors } = await open(1280, keys.counters);
    await p.getByRole("radio", { name: /Pickup point/ }).check({ timeout: 15_000 });
    await expect.poll(() => listed(p), { timeout: 15_000 }).toEqual(offered.all.slice(0, 2));
    expect(await p.getByRole("group", { name: "Pickup point type" }).count()).toBe(0);
    await p.screenshot({ path: `${SHOTS}/picker-kind-one-kind.png`, fullPage: true });
    expect(errors).toEqual([]);
    await p.close();
  });
});
