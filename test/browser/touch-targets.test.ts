// Every touch target of the portal's screens at 320 px is at least 24 x 24 CSS px (WCAG 2.2's 2.5.8), measured in a
// real browser (smallTargets in test/helpers/browser.ts): one signed-in page walks each screen of the main menu (the
// pricing page's shipping settings with their chosen countries' remove buttons), the announce form with two products,
// and the password change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smallTargets } from "../helpers/browser.ts";
import { openPortal, portalUser, signIn, startPortalRig, type PortalRig } from "../helpers/portal.ts";

const MERCHANT = "touch-targets.example.com";
const USER = { email: "admin@touch-targets.example.com", password: "touch-targets-password" };
let rig: PortalRig;

beforeAll(async () => {
  rig = await startPortalRig();
  await portalUser(rig, MERCHANT, USER.email, USER.password);
}, 180_000);
afterAll(async () => {
  await rig?.close();
});

describe("the portal at 320 px", () => {
  it("has no touch target under 24 x 24 px on any screen", async () => {
    const portal = await openPortal(rig, 320);
    const { page } = portal;
    await signIn(page, USER.email, USER.password);
    const found: Record<string, string[]> = {};
    for (const view of ["Shipments", "Pricing", "Webhooks", "Checkout", "Users"]) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: view }).click();
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.waitForLoadState("networkidle");
      found[view] = await smallTargets(page);
    }
    // The password change (the account's link), and the announce form with two products (their Remove buttons).
    await page.getByRole("link", { name: "Change password" }).click();
    await page.getByRole("heading", { level: 1, name: /password/i }).waitFor();
    found["Change password"] = await smallTargets(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shipments" }).click();
    await page.getByRole("link", { name: "Announce a shipment" }).click();
    await page
      .getByRole("form", { name: "Announce a shipment" })
      .getByRole("button", { name: "Add a product" })
      .click();
    found["Announce a shipment"] = await smallTargets(page);
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((view) => [view, []])));
    expect(portal.errors).toEqual([]);
    await portal.close();
  });
});
