// The checkout picker's failures, told apart in a real browser (issue 56 "Tell failures apart"): a service that does
// not answer (stopped) offers "Try again", and trying again works once it is back; a page on an origin its key does
// not list, or with a revoked key, says the options cannot be shown there, without "Try again" (it cannot help),
// and tells the shop's developer in the console what to do; a postal code that cannot be
// one, or that the directory does not know, says "Check the postal code"; an address nothing is delivered to says
// so. The shop's page serves picker.js itself, so the script loads whatever the service is doing, and the page asks
// the service through a stand-in address (a proxy to the test server) that the test stops and starts.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { closeContexts, expectAccessible, sharedChromium } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, SETTINGS } from "../helpers/shipping.ts";

const DB = process.env.TEST_DB ?? "pglite";
const SHOTS = `.tmp/screenshots/${DB}`;

let srv: TestServer;
let browser: Browser;
let shop: Server;
let api: Server;
let apiPort = 0;
let key = "";
let shopOrigin = "";
let m: LogisticsClient;
let script = "";

const listen = (server: Server, port = 0) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** The service at another address: every request passed on to the test server as it came. */
function proxy(): Server {
  return createServer((req, res) => {
    const upstream = request(`${srv.origin}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
}

/** A shop's checkout page: picker.js from the shop itself, the element asking the stand-in service. */
function page(lang: string, postalcode: string, country: string, pageKey: string) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Shop checkout</title></head>
<body><main><h1>Checkout</h1><script src="/picker.js"></script>
<logistics-shipping-picker api="http://127.0.0.1:${apiPort}/2015-01-01" key="${pageKey}" postalcode="${postalcode}"
  country="${country}" weight="1200"></logistics-shipping-picker></main></body></html>`;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const pickerPath = path.resolve(`.tmp/picker-failures-${DB}/picker.js`);
  execFileSync(process.execPath, ["tools/build-picker.mjs", pickerPath], { stdio: "inherit" });
  script = readFileSync(pickerPath, "utf8");
  srv = await startTestServer();
  await loadDemo(srv);
  m = await srv.merchant("picker-failures.example.com");
  await configure(m, SETTINGS, [list("letter"), list("home"), list("pickup")]);
  shop = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/picker.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" });
      return res.end(script);
    }
    const q = url.searchParams;
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(page(q.get("lang") ?? "en", q.get("postalcode") ?? "20780", q.get("country") ?? "FI", q.get("key") ?? key));
  });
  const shopPort = await listen(shop);
  shopOrigin = `http://127.0.0.1:${shopPort}`;
  key = (await m.POST("/publishable_keys/_create", { body: { origins: [shopOrigin] } })).data!.key;
  api = proxy();
  apiPort = await listen(api);
  browser = await sharedChromium();
}, 120_000);
afterAll(async () => {
  await closeContexts(browser);
  if (api?.listening) await stop(api);
  if (shop) await stop(shop);
  await srv?.close();
});

async function open(query: Record<string, string>): Promise<{ page: Page; errors: string[]; warnings: string[] }> {
  const p = await browser.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  p.on("pageerror", (e) => errors.push(e.message));
  p.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
  await p.goto(`http://127.0.0.1:${(shop.address() as AddressInfo).port}/?${new URLSearchParams(query)}`);
  return { page: p, errors, warnings };
}
const status = (page: Page) => page.getByRole("status").textContent();

describe("the checkout picker tells its failures apart", () => {
  it("a stopped service: could not be loaded, with Try again, which works once the service is back", async () => {
    await stop(api);
    const { page, errors } = await open({});
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe("Delivery options could not be loaded.");
    expect(await page.getByRole("radio").count()).toBe(0);
    const retry = page.getByRole("button", { name: "Try again" });
    expect(await retry.count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/picker-outage.png`, fullPage: true });
    await expectAccessible(page);

    api = proxy();
    await listen(api, apiPort);
    await retry.click();
    await expect.poll(() => page.getByRole("radio").count(), { timeout: 10_000 }).toBe(3);
    expect(await status(page)).toMatch(/^3 delivery options for 20780\./);
    expect(await page.getByRole("button", { name: "Try again" }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("an origin the key does not list, or a revoked key: cannot be shown here, no Try again; the console says what to do", async () => {
    const refused = "Delivery options cannot be shown on this page. Please tell the shop.";
    // The key lists another origin only.
    const other = (await m.POST("/publishable_keys/_create", { body: { origins: ["https://elsewhere.example"] } }))
      .data!;
    const { page, errors, warnings } = await open({ key: other.key });
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe(refused);
    expect(await page.getByRole("button", { name: "Try again" }).count()).toBe(0);
    expect(await page.getByRole("radio").count()).toBe(0);
    expect(warnings.join("\n")).toContain(`Add ${shopOrigin} to the allowed origins of the publishable key`);
    await page.screenshot({ path: `${SHOTS}/picker-refused.png`, fullPage: true });
    await expectAccessible(page);
    // Revoked (a key that listed this origin): the same for the shopper, in the page's language.
    const gone = (await m.POST("/publishable_keys/_create", { body: { origins: [shopOrigin] } })).data!;
    await m.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: gone.id } } });
    const ask = () =>
      fetch(`${srv.baseUrl}/shipping_options?postalcode=20780&country=FI`, {
        headers: { Authorization: `Bearer ${gone.key}`, Origin: shopOrigin },
      }).then((r) => r.status);
    await expect.poll(ask, { timeout: 3000 }).toBe(401); // known revoked within a second
    const revoked = await open({ key: gone.key, lang: "fi" });
    await expect
      .poll(() => status(revoked.page), { timeout: 10_000 })
      .toBe("Toimitustapoja ei voida näyttää tällä sivulla. Kerrothan kaupalle.");
    expect(await revoked.page.getByRole("button").count()).toBe(1); // Hae (search), nothing to try again
    expect(revoked.warnings.join("\n")).toMatch(/\(401\)/);
    expect([...errors, ...revoked.errors]).toEqual([]);
    await page.close();
    await revoked.page.close();
  });

  it("a postal code that cannot be one, or that the directory does not know: Check the postal code, no Try again", async () => {
    // Not a postal code at all: the service refuses the query (400).
    const { page, errors } = await open({ postalcode: "ABC" });
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe("Check the postal code.");
    expect(await page.getByRole("button", { name: "Try again" }).count()).toBe(0);
    expect(await page.getByRole("radio").count()).toBe(0);
    // A code the directory (the demo's) does not know: the service's reason unknown_postal_code, in the page's language
    // (after a known one, so that the words seen are the new answer's).
    await page.getByRole("textbox", { name: "Postal code" }).fill("20780");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => status(page)).toMatch(/near 20780/);
    await page.getByRole("textbox", { name: "Postal code" }).fill("99999");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => status(page)).toBe("Check the postal code.");
    await page.locator("logistics-shipping-picker").evaluate((el) => el.setAttribute("lang", "fi"));
    await expect.poll(() => status(page)).toBe("Tarkista postinumero.");
    expect(await page.getByRole("radio").count()).toBe(0);
    expect(await page.getByRole("button").count()).toBe(1); // Hae (search), nothing to try again
    expect(errors).toEqual([]);
    await page.close();
  });

  it("an address nothing is delivered to: says so, without Try again or an empty list", async () => {
    // The merchant serves Finland only: every method is unavailable to a Swedish address.
    const { page, errors } = await open({ postalcode: "11120", country: "SE", lang: "sv" });
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe("Ingen leverans är möjlig till detta postnummer.");
    expect(await page.getByRole("group").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Försök igen" }).count()).toBe(0);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await page.close();
  });
});
