// The Checkout page's Shopify part in a real browser, at desktop and at 360 px: a shop's admin reads the steps that
// connect a Shopify shop, is told in plain words what is wrong with a form sent with bad input (nothing stored),
// creates a callback address with the app's client secret, sees the address and its carrierServiceCreate call once
// (and Shopify's signed rate request to that address is answered with rates), finds it listed without the token,
// revokes it (the address then answers 404), and reads the part in Finnish. Driven by role and label; every screen
// checked (axe-core, no sideways scroll) and photographed to .tmp/screenshots/<db>/portal-checkout-shopify-*.png.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/transaction.ts";
import { seedDemoShipping } from "../../server/shipping/demo.ts";
import {
  checkScreen,
  expectPlainWords,
  openPortal,
  portalUser,
  startPortalRig,
  type PortalRig,
} from "../helpers/portal.ts";
import { loadDemo } from "../helpers/shipping.ts";

const POLL = { timeout: 10_000 };
const APP_SECRET = "shpss_portal0123456789abcdef01234567";
const FIXTURE = readFileSync(new URL("../fixtures/shopify/cart-two-shirts-fi.json", import.meta.url), "utf8");
let rig: PortalRig;

beforeAll(async () => {
  rig = await startPortalRig();
  await loadDemo(rig.srv);
}, 180_000);
afterAll(async () => {
  await rig?.close();
});

/** Shopify's rate request to `url`, signed with the app secret as Shopify signs it. */
async function askRates(url: string) {
  const body = JSON.stringify((JSON.parse(FIXTURE) as { body: unknown }).body);
  const signature = createHmac("sha256", APP_SECRET).update(body).digest("base64");
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Shopify-Hmac-Sha256": signature },
    body,
  });
  return { status: r.status, body: (await r.json()) as { rates?: { service_code: string }[] } };
}

const openCheckout = async (page: Page) => {
  await page
    .getByRole("navigation", { name: /^(Main|Päävalikko)$/ })
    .getByRole("link", { name: /^(Checkout|Kassa)$/ })
    .click();
};

// At both widths: on a phone the callback addresses' table becomes a stack of cards (read by element below), and
// an address is revoked from inside one.
describe.each([1280, 360])("the Shopify part of the Checkout page at %i px", (width) => {
  it("shows the steps, refuses bad input in plain words, creates an address shown once, lists it without the token and revokes it", async () => {
    const merchant = `shopify-${width}.example.com`;
    const user = { email: `admin@${merchant}`, password: "shopify-page-password" };
    const m = await portalUser(rig, merchant, user.email, user.password);
    await inTransaction(rig.srv.handle.db, (trx) =>
      seedDemoShipping(trx, { role: "merchant", id: merchant, name: `M-${merchant}` }),
    );
    rig.srv.caches.shippingConfig.clear();
    const stored = async () => (await m.GET("/shopify/carrier_service_tokens")).data!.items;

    const { page, errors } = await openPortal(rig, width, { as: user, expected: [400] });
    await openCheckout(page);
    const part = page.getByRole("region", { name: "Shopify" });
    await part.getByRole("heading", { name: "Connect your Shopify shop" }).waitFor(POLL);
    const steps = await part.getByRole("listitem").allTextContents();
    expect(steps).toHaveLength(5);
    expect(steps[0]).toContain("carrier-calculated shipping");
    expect(steps[1]).toContain("write_shipping");
    expect(steps[3]).toContain("carrierServiceCreate");
    expect(await part.getByRole("table").count()).toBe(0);
    await expectPlainWords(page);
    await checkScreen(page, "checkout-shopify");

    // Bad input: too many pickup points and a secret with a space. Named at their fields, nothing stored.
    const form = part.getByRole("form", { name: "New Shopify callback address" });
    await form.getByLabel("How many of the nearest pickup points to offer").fill("11");
    await form.getByLabel("Your Shopify app's client secret (optional)").fill("two words");
    await form.getByRole("button", { name: "Create address" }).click();
    const rates = form.getByLabel("How many of the nearest pickup points to offer");
    await expect.poll(() => rates.getAttribute("aria-invalid"), POLL).toBe("true");
    const said = async (field: typeof rates) =>
      page.locator(`[id="${await field.getAttribute("aria-describedby")}"]`).textContent();
    expect(await said(rates)).toMatch(/10/);
    const secret = form.getByLabel("Your Shopify app's client secret (optional)");
    expect(await secret.getAttribute("aria-invalid")).toBe("true");
    await expectPlainWords(page);
    await checkScreen(page, "checkout-shopify-problem");
    expect(await stored()).toEqual([]);

    // Created: the address and its registration call, shown once.
    await form.getByLabel("Name (for you, e.g. the shop's name)").fill("Main shop");
    await rates.fill("2");
    await form.getByLabel(/^Product properties whose values are tags/).fill("_shipping_tag");
    await secret.fill(APP_SECRET);
    await form.getByRole("button", { name: "Create address" }).click();
    const once = part.getByRole("article", { name: "Your callback address (shown once)" });
    await once.waitFor(POLL);
    const url = (await once.locator("pre code").textContent())!;
    expect(url).toMatch(
      new RegExp(`^${rig.srv.origin.replace(/[.]/g, "\\.")}/2015-01-01/shopify/carrier_service/cs_[A-Za-z0-9]{32}$`),
    );
    await once.getByText("The call that registers it in Shopify (GraphQL Admin API)", { exact: true }).click();
    const call = (await once.getByLabel("The call that registers it in Shopify (GraphQL Admin API)").textContent())!;
    expect(call).toContain("carrierServiceCreate(");
    expect(call).toContain(`callbackUrl: "${url}"`);
    await expectPlainWords(page);
    await checkScreen(page, "checkout-shopify-created");
    const [token] = await stored();
    expect(token).toMatchObject({
      name: "Main shop",
      pickup_rates: 2,
      tag_properties: ["_shipping_tag"],
      has_app_secret: true,
      revoked_at: null,
    });

    // The address works: Shopify's signed request gets the home and letter rates and two pickup points.
    const answer = await askRates(url);
    expect(answer.status).toBe(200);
    expect(answer.body.rates!.map((r) => r.service_code).slice(0, 2)).toEqual(["home", "letter"]);
    expect(answer.body.rates).toHaveLength(4);

    // Stored away: the token is nowhere on the page any more; the list shows its first characters.
    await once.getByRole("button", { name: "I have stored it" }).click();
    await expect.poll(() => once.count(), POLL).toBe(0);
    const tokenText = url.slice(url.lastIndexOf("/") + 1);
    expect(await page.locator("body").innerText()).not.toContain(tokenText);
    // By element: on a phone the table's rows are blocks (stack-on-phone), which the accessibility tree calls no cells.
    const row = part.getByRole("table", { name: "Shopify callback addresses" }).locator("tbody tr").first();
    const cells = await row.locator("td").allTextContents();
    expect(cells.slice(0, 4)).toEqual(["Main shop", `…/carrier_service/${tokenText.slice(0, 7)}…`, "2", "Yes"]);
    expect(cells[5]).toBe("Working");
    await checkScreen(page, "checkout-shopify-listed");

    // Revoked after a confirmation: the address answers 404 at once.
    await row.getByRole("button", { name: "Revoke: Main shop" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke Main shop?" });
    await dialog.getByRole("button", { name: "Revoke address" }).click();
    await part.getByRole("status").filter({ hasText: "The address was revoked" }).waitFor(POLL);
    await expect.poll(async () => (await row.locator("td").allTextContents())[5], POLL).toMatch(/^Revoked /);
    expect(await row.getByRole("button").count()).toBe(0);
    expect((await askRates(url)).status).toBe(404);
    expect((await stored())[0]!.revoked_at).not.toBeNull();
    await checkScreen(page, "checkout-shopify-revoked");
    expect(errors).toEqual([]);
    await page.close();

    // In Finnish: the same part in Finnish words.
    const fi = await openPortal(rig, width, { as: user, locale: "fi-FI" });
    await openCheckout(fi.page);
    const osa = fi.page.getByRole("region", { name: "Shopify" });
    await osa.getByRole("heading", { name: "Yhdistä Shopify-kauppasi" }).waitFor(POLL);
    await osa.getByRole("table", { name: "Shopifyn kutsuosoitteet" }).waitFor(POLL);
    await osa.getByRole("form", { name: "Uusi Shopifyn kutsuosoite" }).waitFor(POLL);
    await expectPlainWords(fi.page);
    await checkScreen(fi.page, "checkout-shopify-fi");
    expect(fi.errors).toEqual([]);
    await fi.page.close();
  }, 180_000);
});
