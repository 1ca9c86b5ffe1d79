// The receiving station in a real browser at 390 px (issue 50's journey, one database: the API-level checks of the
// same rules run on both in test/warehouse/station-api.test.ts). A receiver signs in, marks the day's delivery
// arrived, opens it by typing its label's code, and counts it with a keyboard-wedge scanner (GTIN + Enter): a
// carton's quantity, a GTIN that is not on the delivery note, a count past what was expected, a product without a
// GTIN found by its name. The browser goes offline for five more scans, kept and shown as not sent; Finish is
// refused while they wait; back online they are sent. A second receiver in another browser counts the same delivery
// meanwhile. The merchant's shipment has every count exactly once, with who recorded it, and the items_arrived
// webhooks add up to it. A supervisor finishes the delivery; a scan that waited offline on the second browser is then
// refused (409) with the hint to ask a supervisor. Every screen: axe-core, no sideways scroll at 360 px, screenshots
// (.tmp/screenshots/<db>/station-*.png).
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { provisionWarehouseUser } from "../../server/warehouse/users.ts";
import { expectAccessible } from "../helpers/browser.ts";
import { announcement, createShipment, getShipment } from "../helpers/fixtures.ts";
import { expectNoSideScroll, expectPlainWords, SHOTS, startPortalRig, type PortalRig } from "../helpers/portal.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { today } from "../helpers/station.ts";

type S = components["schemas"];

/** A GTIN-13 with its check digit, from 12 digits. */
function gtin13(body: string): string {
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}
const GTIN = { tee: gtin13("641040508265"), socks: gtin13("641040508300"), cap: gtin13("641040508400") };
const STRANGER = gtin13("735000000123");
const MERCHANT = "station-shop.example.com";
const MAIJA = { email: "maija@station.example.com", password: "maija-station-1", name: "Maija Virtanen" };
const PEKKA = { email: "pekka@station.example.com", password: "pekka-station-1", name: "Pekka Lahti" };
const SANNA = { email: "sanna@station.example.com", password: "sanna-station-1", name: "Sanna Esimies" };

let rig: PortalRig;
let rx: Receiver;
let m: LogisticsClient;
let id: string;
const errors: string[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  rig = await startPortalRig({ webhooks: { allowPrivateNetworks: true }, dispatcher: { pollMs: 600_000 } });
  rx = await startReceiver();
  m = await rig.srv.merchant(MERCHANT);
  const hook = await m.POST("/webhook_endpoints/_create", {
    body: { url: rx.url("/hook"), event_types: ["inbound_shipment.items_arrived"] },
  });
  expect(hook.response.status).toBe(201);
  const db = rig.srv.handle.db;
  await Promise.all([
    provisionWarehouseUser(db, MAIJA.email, MAIJA.password, { role: "receiver", name: MAIJA.name }),
    provisionWarehouseUser(db, PEKKA.email, PEKKA.password, { role: "receiver", name: PEKKA.name }),
    provisionWarehouseUser(db, SANNA.email, SANNA.password, { role: "supervisor", name: SANNA.name }),
  ]);
  id = await createShipment(
    m,
    announcement({
      merchants_ref: "PO-DOCK-12",
      sender_name: "Nordic Threads Oy",
      expected_at_wh: today(),
      products: [
        { merchants_id: "SKU-TEE", name: "Blue T-shirt M", gtin: GTIN.tee, qty: 10 },
        { merchants_id: "SKU-SOCKS", name: "Wool socks", gtin: GTIN.socks, qty: 24 },
        { merchants_id: "SKU-CAP", name: "Cap", gtin: GTIN.cap, qty: 2 },
        { merchants_id: "SKU-BAG", name: "Tote bag", gtin: "", qty: 3 },
      ],
    }),
  );
}, 120_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await rig?.close();
  await rx?.close();
});

/** A phone's browser on the station; console errors, page errors and foreign requests are collected. */
async function openStation(expected: number[] = []): Promise<Page> {
  const context = await rig.browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: "en-GB",
    timezoneId: "UTC",
    hasTouch: true,
  });
  contexts.push(context);
  const page = await context.newPage();
  // "Failed to load resource" is the browser's own line for a 4xx the journey provokes on purpose, or an offline send.
  const allowed = new RegExp(`status of (${expected.join("|") || "none"})\\b|ERR_INTERNET_DISCONNECTED`);
  page.on("console", (msg) => {
    if (msg.type() === "error" && !allowed.test(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/*", (route) =>
    route.request().url().startsWith(`${rig.srv.origin}/`)
      ? route.continue()
      : (errors.push(`foreign request ${route.request().url()}`), route.abort()),
  );
  await page.goto(`${rig.srv.origin}/station`);
  return page;
}

/** One screen's checks: axe-core, plain words, no sideways scroll at 360 px (its screenshot) and at 390. */
async function checkScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  await expectPlainWords(page);
  await page.setViewportSize({ width: 360, height: 844 });
  await expectNoSideScroll(page);
  await page.screenshot({ path: `${SHOTS}/station-${name}-360.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSideScroll(page);
}

async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(who.email);
  await form.getByLabel("Password").fill(who.password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Today's deliveries" }).waitFor();
}

/** A keyboard-wedge scanner: the code's keys and Enter into the focused field. */
async function wedge(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code, { delay: 0 });
  await page.keyboard.press("Enter");
}

/** Opens the delivery from today's list by typing its label's code, or its reference, into the scan field. */
async function openByCode(page: Page, code: string): Promise<void> {
  await page.getByLabel("Scan the label or type the reference").fill(code);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "PO-DOCK-12" }).waitFor();
}

const lastScan = (page: Page) => page.locator(".last-scan");
const scanField = (page: Page) => page.getByLabel("Scan a barcode, or type a product's name or code");
const unsentInBar = (page: Page) => page.locator(".station-bar [role=status]");

describe("the receiving station", () => {
  it("is a page of the portal's build at /station, under the portal's headers, in Finnish for a Finnish browser", async () => {
    const r = await fetch(`${rig.srv.origin}/station`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-security-policy")).toMatch(/script-src 'self';/);
    expect(r.headers.get("cache-control")).toBe("no-cache");
    const context = await rig.browser.newContext({ viewport: { width: 360, height: 740 }, locale: "fi-FI" });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${rig.srv.origin}/station`);
    await page.getByRole("form", { name: "Kirjaudu sisään" }).getByLabel("Sähköposti").waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fi");
    await checkScreen(page, "sign-in-fi");
  });

  it("counts a delivery by keyboard wedge, online and offline, with a second station at once; finishes it", async () => {
    const maija = await openStation();
    await maija.getByRole("form", { name: "Sign in" }).waitFor();
    await checkScreen(maija, "sign-in");
    await signIn(maija, MAIJA);
    await maija.getByRole("article", { name: "PO-DOCK-12" }).waitFor();
    await checkScreen(maija, "today");

    // "Arrived": the delivery is at the warehouse.
    const card = maija.getByRole("article", { name: "PO-DOCK-12" });
    await card.getByRole("button", { name: "Arrived" }).click();
    await card.getByText("At the warehouse").waitFor();
    expect((await getShipment(m, id)).status).toBe("arrived_at_warehouse");

    // Opened by the label's code (the shipment's id), typed as a scanner would.
    await openByCode(maija, id);
    await expect.poll(() => scanField(maija).evaluate((e) => e === document.activeElement)).toBe(true);
    await checkScreen(maija, "receive");

    // A second receiver, in another browser, opens the same delivery by its reference.
    const pekka = await openStation([409]);
    await signIn(pekka, PEKKA);
    await openByCode(pekka, "PO-DOCK-12");

    // Twelve scans at Maija's station.
    for (let i = 1; i <= 5; i++) {
      await wedge(maija, GTIN.tee);
      // From the fourth on, Maija's count includes Pekka's scan once her station has read it.
      const now = i <= 3 ? String(i) : `(${i}|${i + 1})`;
      await expect
        .poll(() => lastScan(maija).textContent())
        .toMatch(new RegExp(`^Blue T-shirt M: \\+1, now ${now} of 10$`));
      if (i === 3) {
        await wedge(pekka, GTIN.tee);
        await lastScan(pekka)
          .getByText(/Blue T-shirt M: \+1, now \d+ of 10/)
          .waitFor();
      }
    }
    // A carton: its quantity, Enter, then the scan.
    await maija.getByLabel(/Items in this scan/).fill("12");
    await maija.keyboard.press("Enter");
    await wedge(maija, GTIN.socks);
    await expect.poll(() => lastScan(maija).textContent()).toBe("Wool socks: +12, now 12 of 24");
    await expect(maija.getByLabel(/Items in this scan/).inputValue()).resolves.toBe("1");
    await wedge(maija, GTIN.cap);
    await wedge(maija, GTIN.cap);
    await expect.poll(() => lastScan(maija).textContent()).toBe("Cap: +1, now 2 of 2");

    // A GTIN that is not on the note: recorded under the supplier's code and a name.
    await wedge(maija, STRANGER);
    const stranger = maija.getByRole("alertdialog", { name: "Not on the delivery note" });
    await stranger.waitFor();
    await checkScreen(maija, "not-on-note");
    await wedge(maija, "SUP-777"); // the supplier's code scanned from the carton: Enter moves on to the name
    await stranger.getByLabel("Product name").fill("Rain poncho");
    await stranger.getByRole("button", { name: "Record as not on the note" }).click();
    await expect.poll(() => lastScan(maija).textContent()).toBe("Rain poncho: +1, now 1 (not on the delivery note)");

    // Past what was expected: warned, asked again.
    await wedge(maija, GTIN.cap);
    const over = maija.getByRole("alertdialog", { name: "More than expected" });
    await over.getByText("This makes 3 of Cap, but 2 were expected. Count them anyway?").waitFor();
    await checkScreen(maija, "over");
    await over.getByRole("button", { name: "Yes, count them" }).click();
    await expect.poll(() => lastScan(maija).textContent()).toBe("Cap: +1, now 3 of 2");

    // A product without a GTIN, found by its name.
    await wedge(maija, "tote");
    const which = maija.getByRole("alertdialog", { name: "Which product is it?" });
    await which.getByRole("button", { name: /Tote bag/ }).click();
    await expect.poll(() => lastScan(maija).textContent()).toBe("Tote bag: +1, now 1 of 3");
    await wedge(maija, GTIN.tee);
    await expect.poll(() => lastScan(maija).textContent()).toMatch(/^Blue T-shirt M: \+1, now \d+ of 10$/);
    await expect.poll(() => unsentInBar(maija).textContent(), { timeout: 15_000 }).toBe("Connected");

    // Offline: five more scans, kept in the browser and shown as not sent.
    await maija.context().setOffline(true);
    for (const code of [GTIN.tee, GTIN.tee, GTIN.socks, "SKU-BAG", STRANGER]) await wedge(maija, code);
    await wedge(pekka, GTIN.tee);
    await expect
      .poll(() => unsentInBar(maija).textContent(), { timeout: 15_000 })
      .toMatch(/^No connection.*5 scans not sent yet$/);
    await maija.getByText("2 not sent yet").first().waitFor();
    await checkScreen(maija, "offline");
    // Finish is refused while scans wait.
    await maija.getByRole("button", { name: "Finish receiving" }).click();
    await maija.getByText(/^5 scans of this delivery not sent yet/).waitFor();
    expect(await maija.getByRole("button", { name: /^Finish/ }).count()).toBe(0);
    await checkScreen(maija, "finish-refused");
    await maija.getByRole("button", { name: "Back to counting" }).click();

    // Online again: sent in order, each once.
    await maija.context().setOffline(false);
    await expect.poll(() => unsentInBar(maija).textContent(), { timeout: 15_000 }).toBe("Connected");

    const expected: Record<string, number> = {
      "SKU-TEE": 6 + 2 + 2, // Maija online and offline, Pekka twice
      "SKU-SOCKS": 13,
      "SKU-CAP": 3,
      "SKU-BAG": 2,
      "SUP-777": 2,
    };
    const shipment = await getShipment(m, id);
    const counts = Object.fromEntries(shipment.products.map((l) => [l.product.merchants_id, l.arrivedQty]));
    expect(counts).toEqual(expected);
    const entries = shipment.products.flatMap((l) => l.arrivals);
    expect(entries).toHaveLength(17 + 2);
    expect(entries.filter((a) => a.recorded_by?.name === MAIJA.name)).toHaveLength(17);
    expect(entries.filter((a) => a.recorded_by?.name === PEKKA.name)).toHaveLength(2);
    expect(shipment.products.find((l) => l.product.merchants_id === "SUP-777")!.product).toMatchObject({
      name: "Rain poncho",
      gtin: STRANGER,
    });

    // The merchant's receiver got items_arrived events whose totals are the same.
    const events = await rx.waitFor(19, { timeoutMs: 15_000 });
    const totals: Record<string, number> = {};
    for (const e of events) {
      const payload = (JSON.parse(e.body) as { payload: S["InboundItemsArrivedPayload"] }).payload;
      for (const a of payload.arrivals) totals[a.merchants_id] = (totals[a.merchants_id] ?? 0) + a.change;
    }
    expect(totals).toEqual(expected);

    // Maija sees the differences, and that a supervisor finishes with them.
    await maija.getByRole("button", { name: "Finish receiving" }).click();
    await maija
      .getByText("Blue T-shirt M: 0 fewer")
      .or(maija.getByText(/Wool socks: 11 fewer than expected/))
      .waitFor();
    await maija.getByText("Only a supervisor can finish a delivery with differences. Ask a supervisor.").waitFor();
    await checkScreen(maija, "finish-receiver");

    // Pekka's next scan waits offline while a supervisor finishes the delivery at her station.
    await pekka.context().setOffline(true);
    await wedge(pekka, GTIN.tee);
    await expect.poll(() => unsentInBar(pekka).textContent(), { timeout: 15_000 }).toMatch(/1 scan not sent yet$/);
    const sanna = await openStation();
    await signIn(sanna, SANNA);
    await openByCode(sanna, "PO-DOCK-12");
    await sanna.getByRole("button", { name: "Finish receiving" }).click();
    await sanna.getByRole("button", { name: "Finish with these differences" }).click();
    await sanna.getByText("Finished with differences. The shop is told and settles them.").waitFor();
    await checkScreen(sanna, "finished");
    expect((await getShipment(m, id)).status).toBe("problem");
    await sanna.getByRole("button", { name: "Back to today's deliveries" }).click();
    await openByCode(sanna, id);
    await sanna.getByRole("button", { name: "Finish receiving" }).click();
    await sanna.getByRole("button", { name: "Finish with these differences" }).click();
    await sanna.getByText("Finished. The differences stay recorded as they are.").waitFor();
    expect((await getShipment(m, id)).status).toBe("processed");

    // Pekka's scan is refused (409): said in plain words, with the supervisor hint; nothing more was counted.
    await pekka.context().setOffline(false);
    const refused = pekka.getByRole("region", { name: "Scans that were not counted" });
    await refused
      .getByText(/Ask a supervisor to reopen it, then send these scans again\./)
      .waitFor({ timeout: 15_000 });
    await checkScreen(pekka, "refused");
    const after = await getShipment(m, id);
    expect(after.products.find((l) => l.product.merchants_id === "SKU-TEE")!.arrivedQty).toBe(10);
    expect(errors).toEqual([]);
  }, 120_000);
});
