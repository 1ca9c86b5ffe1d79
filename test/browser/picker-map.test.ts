// The checkout picker's map (issue 51 item 3): with a map tile URL set (PICKER_MAP_TILE_URL), the pickup points can
// be shown on a map whose tiles come from the operator's tile server, here a local one that counts what it is
// asked. The shopper opens the map and picks a point by keyboard only; the choice is the list's, so the page gets
// the same value and quote. With no tile URL, nothing of the map is fetched: no map script, no tile.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { closeContexts, expectAccessible, sharedChromium, smallTargets } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
type Pick = { method: string; pickup_point: { id: string; name: string } | null; price: S["Price"]; quote: string };

const DB = process.env.TEST_DB ?? "pglite";
const SHOTS = `.tmp/screenshots/${DB}`;
const MERCHANT = "picker-map-shop.example.com";
const CREDIT = "© Test tiles & their makers";
// Generous: the machine running the suite may be loaded many times over.
const WAIT = { timeout: 30_000 };

/** A 256 px map tile: a pale field with a darker edge, so a screenshot shows the tiles' grid. */
function tilePng(): Buffer {
  const size = 256;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const edge = x === 0 || y === 0;
      row.set(edge ? [190, 200, 185] : [236, 240, 228], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

let mapped: TestServer;
let plain: TestServer;
let m: LogisticsClient;
let browser: Browser;
let tiles: Server;
let shop: Server;
/** The paths the tile server was asked for since the last reset. */
let tileRequests: string[] = [];
let key = "";
/** Which of the two servers the shop's page loads the picker from. */
let picker: TestServer;

const originOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const pickerDir = path.resolve(`.tmp/picker-map-${DB}`);
  execFileSync(process.execPath, ["tools/build-picker.mjs", path.join(pickerDir, "picker.js")], { stdio: "inherit" });
  const png = tilePng();
  tiles = createServer((req, res) => {
    tileRequests.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "image/png", "Cache-Control": "no-store" });
    res.end(png);
  });
  await new Promise<void>((resolve) => tiles.listen(0, "127.0.0.1", resolve));
  mapped = await startTestServer({
    pickerDir,
    pickerMap: { tileUrl: `${originOf(tiles)}/{z}/{x}/{y}.png`, attribution: CREDIT },
  });
  // The same service with no tile URL: another process of it, on the same database.
  plain = await startTestServer({ pickerDir, database: mapped.handle });
  await loadDemo(mapped);
  m = await mapped.merchant(MERCHANT);
  await configure(m, SETTINGS, [
    list("home", { fallback_price: 6.9 }),
    list("pickup", {
      fallback_price: 4.9,
      pricing_rules: [
        { description: "Posti", criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }], price: 3.4 },
      ],
    }),
  ]);
  shop = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop checkout</title>
<style>body { font-family: Georgia, serif; margin: 1rem; } logistics-shipping-picker { --logistics-accent: #7a3e00; }</style>
</head><body><main><h1>Checkout</h1>
<script src="${picker.origin}/picker.js"></script>
<logistics-shipping-picker api="${picker.baseUrl}" key="${key}" postalcode="20780" country="FI"
  weight="1200" cart-value="59.80" item-count="2"></logistics-shipping-picker>
<script>window.picks = []; document.addEventListener("logistics-pick", (e) => window.picks.push(e.detail));</script>
</main></body></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  key = (await m.POST("/publishable_keys/_create", { body: { origins: [originOf(shop)] } })).data!.key;
  browser = await sharedChromium();
}, 180_000);

afterAll(async () => {
  await closeContexts(browser);
  await plain?.close();
  await mapped?.close();
  tiles?.close();
  shop?.close();
});

beforeEach(() => {
  tileRequests = [];
});

/** The shop's page with the picker of `from`, every request the page makes kept in `requests`. */
async function open(from: TestServer, width = 1024) {
  picker = from;
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.once("close", () => void context.close().catch(() => undefined));
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(originOf(shop));
  await expect
    .poll(() => page.getByRole("group", { name: "Delivery method" }).getByRole("radio").count(), WAIT)
    .toBe(2);
  return { page, errors, requests };
}

const picks = (page: Page) => page.evaluate(() => (window as unknown as { picks: (Pick | null)[] }).picks);
const valueOf = (page: Page) =>
  page.locator("logistics-shipping-picker").evaluate((el) => (el as unknown as { value: Pick | null }).value);
/** The element in the picker's shadow root that has the keyboard: its name and whether it is pressed. */
const focused = (page: Page) =>
  page.locator("logistics-shipping-picker").evaluate((el) => {
    const active = el.shadowRoot!.activeElement;
    return active && { label: active.getAttribute("aria-label"), pressed: active.getAttribute("aria-pressed") };
  });
const mapParts = (requests: string[]) =>
  requests.filter((u) => /picker-map|leaflet/i.test(u) || u.startsWith(originOf(tiles)));

describe("the picker's map", () => {
  it("with no tile URL, offers no map and fetches nothing of one: no map script, no tile", async () => {
    const { page, errors, requests } = await open(plain);
    await page.getByRole("radio", { name: /Pickup point/ }).check();
    const points = page.getByRole("group", { name: "Choose a pickup point" });
    await expect.poll(() => points.getByRole("radio").count(), WAIT).toBeGreaterThan(2);
    expect(await page.getByRole("group", { name: "Show pickup points as" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Map" }).count()).toBe(0);
    await points.getByRole("radio").nth(1).check();
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id ?? null)).not.toBeNull();
    expect(mapParts(requests)).toEqual([]);
    expect(tileRequests).toEqual([]);
    // Nor is the map's script there to be had.
    expect((await fetch(`${plain.origin}/picker-map.js`)).status).toBe(404);
    const script = await (await fetch(`${plain.origin}/picker.js`)).text();
    expect(script).toContain('"__LOGISTICS_PICKER_MAP__"');
    expect(errors).toEqual([]);
  }, 180_000);

  it("with a tile URL, loads the map only when opened; markers are reached and chosen by keyboard, as in the list", async () => {
    const { page, errors, requests } = await open(mapped);
    // Keyboard only, from the postal code field: the methods, pickup, then the switch.
    await page.getByRole("textbox", { name: "Postal code" }).focus();
    await page.keyboard.press("Tab"); // Search
    await page.keyboard.press("Tab"); // the methods group: home
    await page.keyboard.press("ArrowDown"); // pickup
    const points = page.getByRole("group", { name: "Choose a pickup point" });
    await expect.poll(() => points.getByRole("radio").count(), WAIT).toBeGreaterThan(3);
    const switcher = page.getByRole("group", { name: "Show pickup points as" });
    expect(await switcher.getByRole("button", { name: "List", pressed: true }).count()).toBe(1);
    // The list is open: nothing of the map has been asked for yet.
    expect(mapParts(requests)).toEqual([]);
    expect(tileRequests).toEqual([]);

    // In the list, the second point: the value the page gets for it.
    const names = await points.locator(".name").allTextContents();
    const ids = await points.getByRole("radio").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    await points.getByRole("radio").nth(1).check();
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id)).toBe(ids[1]);
    const inList = (await valueOf(page))!;

    await switcher.getByRole("button", { name: "List" }).focus();
    await page.keyboard.press("Tab"); // Map
    await page.keyboard.press("Enter");
    const map = page.getByRole("region", { name: "Map of the pickup points" });
    const markers = map.locator("[role=button][aria-pressed]");
    await expect.poll(() => markers.count(), WAIT).toBe(names.length);
    expect(await points.getByRole("radio").count()).toBe(0);
    expect(await switcher.getByRole("button", { name: "Map", pressed: true }).count()).toBe(1);
    expect(await focused(page)).toEqual({ label: null, pressed: "true" }); // still on the Map button
    // Each marker is named by its point, nearest first as in the list; the chosen one is pressed.
    expect(await markers.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")))).toEqual(names);
    expect(await map.locator("[aria-pressed=true]").getAttribute("aria-label")).toBe(names[1]);
    // The map's code came from our server, its tiles from the tile server, and only now.
    expect(mapParts(requests)).toContain(`${mapped.origin}/picker-map.js`);
    expect(requests.filter((u) => u.startsWith(mapped.origin) && /picker-map/.test(u))).toHaveLength(1);
    await expect.poll(() => tileRequests.length, WAIT).toBeGreaterThan(0);
    expect(tileRequests.every((p) => /^\/\d+\/\d+\/\d+\.png$/.test(p))).toBe(true);
    expect(await map.textContent()).toContain(CREDIT);

    // Tab into the map (its pane first, then the markers in the list's order): the third point, with Enter.
    await page.keyboard.press("Tab"); // the map's pane (arrow keys move it)
    expect(await focused(page)).toEqual({ label: "Map of the pickup points", pressed: null });
    await page.keyboard.press("Tab"); // first marker
    expect(await focused(page)).toEqual({ label: names[0], pressed: "false" });
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await focused(page)).toEqual({ label: names[2], pressed: "false" });
    await page.keyboard.press("Enter");
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id)).toBe(ids[2]);
    expect(await focused(page)).toEqual({ label: names[2], pressed: "true" });
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Chosen: .+, €\d/);
    expect(await page.getByRole("status").textContent()).toContain(names[2]);
    await page.screenshot({ path: `${SHOTS}/picker-map-1024.png`, fullPage: true });
    await expectAccessible(page);
    expect(await smallTargets(page)).toEqual([]);

    // Back to the second point with Space: the very value the list gave for it.
    await page.keyboard.press("Shift+Tab");
    expect(await focused(page)).toEqual({ label: names[1], pressed: "false" });
    await page.keyboard.press("Space");
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id)).toBe(ids[1]);
    expect(await valueOf(page)).toEqual(inList);
    expect((await picks(page)).at(-1)).toEqual(inList);

    // The list again: the point chosen on the map is the one checked there.
    await switcher.getByRole("button", { name: "List" }).click();
    await expect.poll(() => points.getByRole("radio").count()).toBe(names.length);
    expect(await points.getByRole("radio", { checked: true }).getAttribute("value")).toBe(ids[1]);
    expect(errors).toEqual([]);
  }, 180_000);

  it("the filter between parcel lockers and service counters narrows the map's markers as it does the list", async () => {
    const { page, errors } = await open(mapped);
    await page.getByRole("radio", { name: /Pickup point/ }).check();
    const points = page.getByRole("group", { name: "Choose a pickup point" });
    await expect.poll(() => points.getByRole("radio").count(), WAIT).toBeGreaterThan(3);
    const all = await points.locator(".name").allTextContents();
    await page.getByRole("button", { name: "Map" }).click();
    const map = page.getByRole("region", { name: "Map of the pickup points" });
    const markers = map.locator("[role=button][aria-pressed]");
    await expect.poll(() => markers.count(), WAIT).toBe(all.length);
    const kinds = page.getByRole("group", { name: "Pickup point type" });
    await kinds.getByRole("button", { name: "Parcel lockers" }).click();
    // The demo directory's one locker near 20780.
    await expect
      .poll(() => markers.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label"))), WAIT)
      .toEqual(["Posti Pakettiautomaatti S-market Kaarina"]);
    await kinds.getByRole("button", { name: "Service counters" }).click();
    await expect.poll(() => markers.count(), WAIT).toBe(all.length - 1);
    await page.screenshot({ path: `${SHOTS}/picker-map-counters-1024.png`, fullPage: true });
    await expectAccessible(page);
    expect(errors).toEqual([]);
  }, 180_000);

  it("fits a phone's screen, and speaks the page's language", async () => {
    const { page, errors } = await open(mapped, 375);
    await page.getByRole("radio", { name: /Pickup point/ }).check();
    await page.getByRole("button", { name: "Map" }).click();
    const map = page.getByRole("region", { name: "Map of the pickup points" });
    const markers = map.locator("[role=button][aria-pressed]");
    await expect.poll(() => markers.count(), WAIT).toBeGreaterThan(3);
    // By mouse: the farthest point (the nearest ones stand close together at this zoom).
    await markers.last().click();
    await expect.poll(() => picks(page).then((p) => p.at(-1)?.pickup_point?.id ?? null)).not.toBeNull();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const box = (await map.boundingBox())!;
    expect(box.width).toBeGreaterThan(250);
    expect(box.height).toBeGreaterThan(250);
    await page.screenshot({ path: `${SHOTS}/picker-map-375.png`, fullPage: true });
    await expectAccessible(page);

    await page.locator("logistics-shipping-picker").evaluate((el) => el.setAttribute("lang", "fi"));
    const kartta = page.getByRole("region", { name: "Noutopisteet kartalla" });
    await expect.poll(() => kartta.count(), WAIT).toBe(1);
    expect(await page.getByRole("group", { name: "Näytä noutopisteet" }).getByRole("button").allTextContents()).toEqual(
      ["Listana", "Kartalla"],
    );
    expect(await kartta.getByRole("button", { name: "Lähennä" }).count()).toBe(1);
    expect(await kartta.getByRole("button", { name: "Zoom in" }).count()).toBe(0);
    // Still laid out by Leaflet's style sheet after the picker redrew itself in Finnish (the tiles stay in the box).
    expect((await kartta.boundingBox())!.height).toBeLessThan(700);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(1500);
    await page.screenshot({ path: `${SHOTS}/picker-map-375-fi.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 180_000);
});
