// The station's queue of scans in a real browser (issue 50 item 4; the happy journey is station.test.ts): a batch
// kept in IndexedDB is there after a reload; a session that ends while scans wait asks the same person to sign in
// again and then sends them; a batch older than the service keeps keys (24 hours) is shown for a decision, never sent
// blindly; a shipment the merchant deleted meanwhile and a key reused with other scans are said in plain words with
// what to do. The API side of each refusal is test/warehouse/station-queue.test.ts, on both databases.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { provisionWarehouseUser } from "../../server/warehouse/users.ts";
import { expectAccessible } from "../helpers/browser.ts";
import { announcement, createShipment, getShipment } from "../helpers/fixtures.ts";
import { expectNoSideScroll, expectPlainWords, SHOTS, startPortalRig, type PortalRig } from "../helpers/portal.ts";
import { today } from "../helpers/station.ts";

const USER = { email: "aino@queue-station.example.com", password: "aino-station-1" };
const TEE = "6410405082657";

let rig: PortalRig;
let m: LogisticsClient;
let userId: string;
let kept: string;
let removed: string;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  rig = await startPortalRig();
  m = await rig.srv.merchant("queue-station-shop.example.com");
  const user = await provisionWarehouseUser(rig.srv.handle.db, USER.email, USER.password, { name: "Aino" });
  userId = user.id;
  kept = await createShipment(m, announcement({ merchants_ref: "PO-KEEP-1", expected_at_wh: today() }));
  removed = await createShipment(m, announcement({ merchants_ref: "PO-GONE-1", expected_at_wh: today() }));
  const context = await rig.browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-GB" });
  page = await context.newPage();
  // The refusals this file provokes, and sends while offline, are the browser's own console lines.
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/status of (401|409|422)\b|ERR_INTERNET_DISCONNECTED/.test(msg.text()))
      errors.push(msg.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${rig.srv.origin}/station`);
}, 120_000);
afterAll(async () => {
  await page?.context().close();
  await rig?.close();
});

async function checkScreen(name: string): Promise<void> {
  await expectAccessible(page);
  await expectPlainWords(page);
  await page.setViewportSize({ width: 360, height: 844 });
  await expectNoSideScroll(page);
  await page.screenshot({ path: `${SHOTS}/station-queue-${name}-360.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
}

async function signIn(): Promise<void> {
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(USER.email);
  await form.getByLabel("Password").fill(USER.password);
  await form.getByRole("button", { name: "Sign in" }).click();
}

async function open(code: string, ref: string): Promise<void> {
  await page.getByLabel("Scan the label or type the reference").fill(code);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: ref }).waitFor();
}

async function scan(code: string): Promise<void> {
  await page.getByLabel("Scan a barcode, or type a product's name or code").focus();
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
}

/** Puts a batch into the browser's queue as the station keeps it (the database and store of portal/src/station/queue.ts). */
async function keep(batch: { shipment_id: string; key: string; change: number; made_at: number }): Promise<void> {
  await page.evaluate(
    async ({ b, user }) => {
      const db = await new Promise<IDBDatabase>((res, rej) => {
        const r = indexedDB.open("logistics-station", 1);
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(new Error(String(r.error)));
      });
      await new Promise((res, rej) => {
        const tx = db.transaction("batches", "readwrite");
        tx.objectStore("batches").add({
          user_id: user,
          shipment_id: b.shipment_id,
          key: b.key,
          made_at: b.made_at,
          body: {
            ts: new Date(b.made_at).toISOString().slice(0, 19) + "+00:00",
            arrivals: [{ merchants_id: "SKU-1001", change: b.change }],
          },
        });
        tx.oncomplete = res;
        tx.onerror = () => rej(new Error(String(tx.error)));
      });
      db.close();
    },
    { b: batch, user: userId },
  );
}

const arrived = async (id: string) => (await getShipment(m, id)).products[0]!.arrivedQty;
const bar = () => page.locator(".station-bar [role=status]");

describe("the station's queue", () => {
  it("keeps scans offline and through an ended session, and sends them for the same person after signing in", async () => {
    await signIn();
    await open(kept, "PO-KEEP-1");
    await page.context().setOffline(true);
    await scan(TEE);
    await scan(TEE);
    await expect.poll(() => bar().textContent()).toMatch(/2 scans not sent yet$/);
    // Reloading offline would show the browser's own error page: the session ends while the page stays.
    await page.context().clearCookies();
    await page.context().setOffline(false);
    await page
      .getByText("You were signed out. Sign in again: your 2 scans not sent yet are kept and will be sent then.")
      .waitFor();
    await checkScreen("signed-out");
    expect(await arrived(kept)).toBe(0);
    await signIn();
    await expect.poll(() => arrived(kept), { timeout: 15_000 }).toBe(2);
    await page.reload();
    await page.getByRole("heading", { name: "Today's deliveries" }).waitFor();
  });

  it("shows a batch older than a day for a decision instead of sending it, and sends it when told", async () => {
    await keep({ shipment_id: kept, key: "old-batch-1", change: 4, made_at: Date.now() - 25 * 3_600_000 });
    await page.reload();
    await open(kept, "PO-KEEP-1");
    const waiting = page.getByRole("region", { name: "Scans that were not counted" });
    await waiting.getByText(/more than a day old and may have been counted already/).waitFor();
    await checkScreen("old-batch");
    await page.waitForTimeout(500);
    expect(await arrived(kept)).toBe(2);
    await waiting.getByRole("button", { name: "Send again" }).click();
    await expect.poll(() => arrived(kept), { timeout: 15_000 }).toBe(6);
    await waiting.waitFor({ state: "detached" });
  });

  it("says a key reused with other scans in words, with what to do; discarding clears it", async () => {
    await keep({ shipment_id: kept, key: "twice-1", change: 1, made_at: Date.now() });
    await keep({ shipment_id: kept, key: "twice-1", change: 3, made_at: Date.now() });
    // The station sends what waits at an `online` event as at its timer (every 4 s): the event, not the wait.
    await page.evaluate(() => window.dispatchEvent(new Event("online")));
    const waiting = page.getByRole("region", { name: "Scans that were not counted" });
    await waiting
      .getByText("These scans clash with scans sent before from this device. Discard them and scan the items again.")
      .waitFor({ timeout: 15_000 });
    expect(await arrived(kept)).toBe(7);
    await waiting.getByRole("button", { name: "Discard" }).click();
    await waiting.waitFor({ state: "detached" });
  });

  it("keeps the count right when a read of the delivery crosses a scan on its way (the read answered last)", async () => {
    // The station reads the delivery every few seconds. This read is answered by the service before the scan is
    // counted, and reaches the page after the scan's own answer: it must not take the scan back off the count.
    let fetched!: () => void;
    const read = new Promise<void>((r) => (fetched = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/warehouse/inbound_shipments/_lookup?*", async (route) => {
      const response = await route.fetch();
      fetched();
      await held;
      await route.fulfill({ response });
    });
    await read;
    await scan(TEE);
    await expect.poll(() => arrived(kept)).toBe(8);
    await page
      .locator(".last-scan")
      .getByText(/, now 8 of \d+$/)
      .waitFor();
    const stale = page.waitForResponse((r) => r.url().includes("/_lookup?"));
    release();
    await stale;
    await page.unroute("**/warehouse/inbound_shipments/_lookup?*");
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    await scan(TEE);
    await page
      .locator(".last-scan")
      .getByText(/, now 9 of \d+$/)
      .waitFor({ timeout: 5_000 });
    await expect.poll(() => arrived(kept)).toBe(9);
  });

  it("says a delivery the shop deleted meanwhile in words, with what to do", async () => {
    await page.getByRole("button", { name: "Back to today's deliveries" }).click();
    await open("PO-GONE-1", "PO-GONE-1");
    await page.context().setOffline(true);
    await scan(TEE);
    const del = await m.DELETE("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: removed } } });
    expect(del.response.status).toBe(200);
    await page.context().setOffline(false);
    const waiting = page.getByRole("region", { name: "Scans that were not counted" });
    await waiting
      .getByText(/The shop removed this delivery, so these scans cannot be counted\./)
      .waitFor({ timeout: 15_000 });
    expect(await waiting.getByRole("button", { name: "Send again" }).count()).toBe(0);
    await page
      .getByText(
        "The shop removed this delivery. New scans will not be counted: put the goods aside and tell a supervisor.",
      )
      .waitFor();
    await checkScreen("deleted");
    expect(errors).toEqual([]);
  });
});
