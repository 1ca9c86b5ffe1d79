// The Pricing page's delivery dates in a real browser, at desktop and phone width, with the server's clock at
// Tuesday 1 December 2026, 10:00 in Helsinki: a shop's staff member sets the warehouse's time zone and home
// delivery's times in plain words, sees what an order placed now would be told before saving, sees a most below
// the least marked next to its field, saves, and checkout's answer carries the same dates. Driven by role and label;
// every screen checked (axe-core, no sideways scroll) and photographed to .tmp/screenshots/<db>/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/transaction.ts";
import { seedDemoShipping } from "../../server/shipping/demo.ts";
import { TestClock } from "../helpers/clock.ts";
import {
  atNarrowerWidths,
  checkScreenAtWidths,
  expectPlainWords,
  openPortal,
  portalUser,
  SHOTS,
  startPortalRig,
  WIDTHS,
  type PortalRig,
} from "../helpers/portal.ts";
import { loadDemo, shippingOptions } from "../helpers/shipping.ts";

const clock = new TestClock("2026-12-01T10:00:00+02:00");
let rig: PortalRig;

beforeAll(async () => {
  rig = await startPortalRig({ now: clock.now });
  await loadDemo(rig.srv);
}, 180_000);
afterAll(async () => {
  await rig?.close();
});

// At 1280 px, its screens at 375 px too (checkScreenAtWidths, and the parts' pictures at both): on a phone the
// settings' fields stack one under the other and a person fills in the same ones, so the journey runs once.
describe(`the delivery dates of the Pricing page at ${WIDTHS[0]} px, its screens at ${WIDTHS.join(" and ")} px`, () => {
  const width = WIDTHS[0];
  it("sets home delivery's times in plain words, previews 'ordered now' before saving, and checkout answers the same dates", async () => {
    const merchant = `dates-${width}.example.com`;
    const user = { email: `staff@${merchant}`, password: "dates-page-password" };
    const m = await portalUser(rig, merchant, user.email, user.password);
    await inTransaction(rig.srv.handle.db, (trx) =>
      seedDemoShipping(trx, { role: "merchant", id: merchant, name: `M-${merchant}` }),
    );
    rig.srv.caches.shippingConfig.clear();
    const { page, errors } = await openPortal(rig, width, { as: user, expected: [400] });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
    await page.locator("summary", { hasText: "Shipping settings" }).click();
    const settings = page.getByRole("form", { name: "Shipping settings" });
    const dates = settings.getByRole("group", { name: "Delivery dates", exact: true });
    expect(await dates.getByLabel("Your warehouse's time zone").inputValue()).toBe("");

    await dates.getByLabel("Your warehouse's time zone").selectOption("Europe/Helsinki");
    const home = dates.getByRole("group", { name: "Home delivery: delivery dates" });
    await home.getByRole("switch", { name: "Show delivery dates" }).check();
    // The defaults: before 14:00 leaves that day, 1 day to send, 1-2 days on the way. Tue 10:00: sent Wed, Thu-Fri.
    const said = home.getByRole("status");
    await expect
      .poll(() => said.textContent(), { timeout: 10_000 })
      .toBe("Ordered now: delivered Thu 3 Dec – Fri 4 Dec");
    await home.getByLabel("Days your warehouse needs to send a parcel").fill("0");
    await expect
      .poll(() => said.textContent(), { timeout: 10_000 })
      .toBe("Ordered now: delivered Wed 2 Dec – Thu 3 Dec");
    // Past the cut-off, the order counts from the next day.
    await home.getByLabel("Orders placed before this time leave that day").fill("09:30");
    await expect
      .poll(() => said.textContent(), { timeout: 10_000 })
      .toBe("Ordered now: delivered Thu 3 Dec – Fri 4 Dec");
    await home.getByLabel("Orders placed before this time leave that day").fill("14:00");
    await expectPlainWords(page);
    await checkScreenAtWidths(page, "delivery-dates");

    // A most below the least is marked next to its field while typing, in plain words.
    const most = home.getByLabel(/^Most days on the way/);
    await most.fill("0");
    await expect.poll(() => most.getAttribute("aria-invalid"), { timeout: 10_000 }).toBe("true");
    const id = await most.getAttribute("aria-describedby");
    const message = await page.locator(`[id="${id}"]`).textContent();
    expect(message).toBe(
      "Delivery times, home delivery: The most days on the way cannot be fewer than the fewest days on the way.",
    );
    await expectPlainWords(page);
    await checkScreenAtWidths(page, "delivery-dates-problem");
    const problemPart = (w: number) =>
      dates.screenshot({ path: `${SHOTS}/portal-delivery-dates-problem-part-${w}.png` });
    await problemPart(width);
    await atNarrowerWidths(page, problemPart);
    await most.fill("2");
    await expect.poll(() => most.getAttribute("aria-invalid"), { timeout: 10_000 }).toBeNull();
    await expect
      .poll(() => said.textContent(), { timeout: 10_000 })
      .toBe("Ordered now: delivered Wed 2 Dec – Thu 3 Dec");

    await settings.getByRole("button", { name: "Save settings" }).click();
    await settings.getByRole("status").filter({ hasText: "Settings saved." }).waitFor();
    const stored = (await m.GET("/merchant/shipping_settings")).data!;
    expect(stored.time_zone).toBe("Europe/Helsinki");
    expect(stored.delivery_times).toEqual({
      home: { handling_days: 0, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" },
    });
    const answer = await shippingOptions(m, { postalcode: "20780", country: "FI", weight: 1000 });
    expect((answer.options.home as { delivery_estimate?: unknown }).delivery_estimate).toEqual({
      earliest: "2026-12-02",
      latest: "2026-12-03",
    });
    const savedPart = (w: number) =>
      settings.screenshot({ path: `${SHOTS}/portal-delivery-dates-saved-part-${w}.png` });
    await savedPart(width);
    await atNarrowerWidths(page, savedPart);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
