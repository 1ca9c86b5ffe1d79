// The portal's frame and its small areas in a real browser at desktop and phone width: the security headers, a
// wrong password and the browser's language (English, Finnish, Swedish), signing out (the old cookie no longer
// works), and the Checkout area (a checkout key for the shop's website, its code, a revoke after a confirmation).
// Screenshots in .tmp/screenshots/<db>/portal-*.png.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { PORTAL_CSP } from "../../server/portal/site.ts";
import {
  checkScreen,
  expectPlainWords,
  openPortal,
  portalUser,
  signIn,
  startPortalRig,
  WIDTHS,
  type PortalRig,
} from "../helpers/portal.ts";

const MERCHANT = "portal-frame.example.com";
const USER = { email: "anna@portal-frame.example.com", password: "portal-frame-password" };

let rig: PortalRig;
let m: LogisticsClient;

beforeAll(async () => {
  rig = await startPortalRig();
  m = await portalUser(rig, MERCHANT, USER.email, USER.password);
}, 120_000);
afterAll(async () => {
  await rig?.close();
});

describe("the portal's frame", () => {
  it("is served with a strict Content-Security-Policy, the other security headers, and an icon", async () => {
    const r = await fetch(`${rig.srv.origin}/portal/`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-security-policy")).toBe(PORTAL_CSP);
    expect(PORTAL_CSP).toContain("script-src 'self'");
    expect(PORTAL_CSP).not.toContain("unsafe-inline");
    expect(PORTAL_CSP).toContain("connect-src 'self'");
    expect(PORTAL_CSP).toContain("frame-ancestors 'none'");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await r.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect((await fetch(`${rig.srv.origin}/portal`, { redirect: "manual" })).headers.get("location")).toBe("/portal/");
    // No source maps in production: the bundle names none, and none is served.
    const script = /<script[^>]*\bsrc="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(new URL(script!, `${rig.srv.origin}/portal/`));
    expect(js.status).toBe(200);
    expect(await js.text()).not.toContain("sourceMappingURL");
    expect((await fetch(new URL(`${script!}.map`, `${rig.srv.origin}/portal/`))).status).toBe(404);
    // The icon the page names is there (a browser asks for it on every page).
    const icon = /<link rel="icon"[^>]*href="([^"]+)"/.exec(html)?.[1];
    expect((await fetch(new URL(icon!, rig.srv.origin))).status).toBe(200);
  });

  for (const [locale, refused] of [
    ["en-GB", "The email address or password is wrong."],
    ["fi-FI", "Sähköpostiosoite tai salasana on väärin."],
    ["sv-SE", "Fel e-postadress eller lösenord."],
  ] as const) {
    it(`refuses a wrong password in the browser's language (${locale})`, async () => {
      const { page, errors, close } = await openPortal(rig, 375, { locale, expected: [401] });
      await signInExpectingRefusal(page, "not-the-password");
      await expect.poll(() => page.getByRole("alert").textContent(), { timeout: 15_000 }).toContain(refused);
      // The whole page is in that language and says so (<html lang>), so a screen reader pronounces it right.
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.slice(0, 2));
      await expectPlainWords(page);
      await checkScreen(page, `sign-in-refused-${locale}`);
      expect(errors).toEqual([]);
      await close();
    });
  }

  it("signs out at phone width: the page asks for a sign-in again, and the old cookie answers 401", async () => {
    const { page, errors, close } = await openPortal(rig, 375);
    await signIn(page, USER.email, USER.password);
    const cookie = (await page.context().cookies()).find((c) => c.name.startsWith("portal"))!;
    expect(cookie).toBeDefined();
    const asked = () =>
      fetch(`${rig.srv.origin}/2015-01-01/portal_sessions/current`, {
        headers: { cookie: `${cookie.name}=${cookie.value}`, "x-csrf-token": "-" },
      }).then((r) => r.status);
    expect(await asked()).toBe(200);
    const account = page.getByRole("region", { name: "Account" });
    expect(await account.textContent()).toContain(USER.email);
    await account.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await page.reload();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await asked()).toBe(401);
    expect(errors).toEqual([]);
    await close();
  });
});

async function signInExpectingRefusal(page: import("playwright-core").Page, password: string) {
  const form = page.getByRole("form", { name: /./ });
  await form.waitFor();
  const fields = form.getByRole("textbox");
  await fields.first().fill(USER.email);
  await form.locator('input[type="password"]').fill(password);
  await form.getByRole("button").first().click();
}

// At both widths: on a phone the keys' table becomes a stack of cards, and a key is revoked from inside one.
describe("the Checkout area", () => {
  for (const width of WIDTHS) {
    it(`creates a checkout key for the shop's website (plain words for a bad address), shows its code, and revokes it after a confirmation (${width} px)`, async () => {
      const { page, errors, close } = await openPortal(rig, width, { expected: [400] });
      await signIn(page, USER.email, USER.password);
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Checkout" }).click();
      const form = page.getByRole("form", { name: "New checkout key" });
      await form.waitFor();
      const name = `Web shop ${width}`;
      await form.getByLabel("Name (for you, e.g. the shop's name)").fill(name);
      const origins = form.getByLabel("Websites that may use it, one per line");
      await origins.fill("https://shop.example.com/checkout");
      await form.getByRole("button", { name: "Create key" }).click();
      await expect.poll(() => origins.getAttribute("aria-invalid"), { timeout: 15_000 }).toBe("true");
      expect(await form.textContent()).toContain("https://shop.example.com: no path and no slash at the end");
      await expectPlainWords(page);
      await checkScreen(page, "checkout-invalid");
      expect((await m.GET("/publishable_keys")).data!.items.filter((k) => k.name === name)).toEqual([]);

      await origins.fill("https://shop.example.com\nhttps://www.shop.example.com");
      await form.getByRole("button", { name: "Create key" }).click();
      const row = page.getByRole("row", { name: new RegExp(name) });
      await row.waitFor();
      expect(await row.textContent()).toMatch(/Working/);
      await page.getByText(`Code for your checkout page: ${name}`).click();
      const code = await page.getByLabel(`Code for ${name}`).textContent();
      expect(code).toMatch(/<logistics-shipping-picker key="pk_[A-Za-z0-9]{32}"/);
      expect(code).toContain(`${rig.srv.origin}/picker.js`);
      expect(await page.getByRole("button", { name: "Copy code" }).first().isVisible()).toBe(true);
      await checkScreen(page, "checkout");

      await row.getByRole("button", { name: "Revoke" }).click();
      const dialog = page.getByRole("dialog", { name: `Revoke ${name}?` });
      await dialog.waitFor();
      await checkScreen(page, "checkout-revoke-confirm");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(await row.textContent()).toMatch(/Working/);
      expect((await m.GET("/publishable_keys")).data!.items.find((k) => k.name === name)!.revoked_at).toBeNull();
      await row.getByRole("button", { name: "Revoke" }).click();
      await dialog.getByRole("button", { name: "Revoke key" }).click();
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toMatch(/Revoked/);
      expect((await m.GET("/publishable_keys")).data!.items.find((k) => k.name === name)!.revoked_at).not.toBeNull();
      expect(errors).toEqual([]);
      await close();
    });
  }
});
