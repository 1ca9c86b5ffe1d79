// The portal's Webhooks area in a real browser, at desktop and phone width, as a shop's staff member uses it: a
// failed delivery says why in words and is retried once the receiving system is up (the rows on their way refresh
// by themselves, and stop asking once none is); a delivery shows the shipment it is about (the link opens it) and
// exactly what it sends; a new signing secret and turning sending off are confirmed first; the refusal when the
// receiving system asked for time is said with the time; an endpoint the service turned off is explained in
// plain words and turned back on. Screenshots: .tmp/screenshots/<db>/portal-webhook-*.png.
import { sql } from "kysely";
import { createServer } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { verifyWebhook } from "../../client/webhooks.ts";
import { announcement } from "../helpers/fixtures.ts";
import {
  atNarrowerWidths,
  checkScreen,
  checkScreenAtWidths,
  expectPlainWords,
  openPortal,
  portalUser,
  startPortalRig,
  WIDTHS,
  type PortalRig,
} from "../helpers/portal.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";

const MERCHANT = "portal-webhooks.example.com";
const USER = { email: "staff@portal-webhooks.example.com", password: "portal-webhooks-pw" };

let rig: PortalRig;
let m: LogisticsClient;
let w: LogisticsClient;
let rx: Receiver;

beforeAll(async () => {
  rig = await startPortalRig({
    // No retries: a failed attempt fails the delivery at once. Time enough for a receiver that answers slowly.
    webhooks: { allowPrivateNetworks: true, retrySchedule: [], timeoutMs: 8000 },
    dispatcher: true,
  });
  m = await portalUser(rig, MERCHANT, USER.email, USER.password);
  w = await rig.srv.operator("portal-webhooks-wh");
  rx = await startReceiver();
}, 180_000);
afterAll(async () => {
  await rx?.close();
  await rig?.close();
});

/** A port with nothing listening: taken, then freed. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

async function createEndpoint(url: string, event_types: ("webhook.test" | "inbound_shipment.status_changed")[]) {
  const ep = await m.POST("/webhook_endpoints/_create", { body: { url, event_types } });
  expect(ep.response.status, JSON.stringify(ep.error)).toBe(201);
  return ep.data!;
}

/** Signed in at `width`, on the endpoint's page, reached as a person does: Webhooks, then its address. */
async function openEndpoint(width: number, url: string, expected: number[] = []) {
  const portal = await openPortal(rig, width, { expected, as: USER, clock: true });
  await portal.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
  await portal.page.getByRole("table", { name: "Endpoints" }).getByRole("link", { name: url, exact: true }).click();
  await portal.page.getByRole("heading", { level: 1, name: url }).waitFor();
  return portal;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The browser's own rendering of a time, as the page's formatTime writes it. */
const shown = (page: Page, ts: string | Date) =>
  page.evaluate(
    (t) => new Date(t).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }),
    typeof ts === "string" ? ts : ts.toISOString(),
  );

// Retrying a failed delivery runs at both widths: on a phone the Deliveries table becomes a stack of cards and the
// person retries from inside one. The other journeys run at 1280 px and check their screens at 375 px too
// (checkScreenAtWidths): a person does the same in them at either width, the dialogs and the alerts one under the
// other on a phone; the delivery body's own box is checked at both (it must scroll inside itself, never the page).
describe.each(WIDTHS)("the portal's webhooks at %i px", (width) => {
  it("shows a failed delivery with why it failed, and retries it once the receiver is up: the row refreshes by itself until delivered", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hook-${width}`;
    await createEndpoint(url, ["webhook.test"]);
    const { page, errors } = await openEndpoint(width, url);
    await checkScreen(page, `webhook-endpoint`);

    // Nothing listens: the delivery fails at its first attempt, and the log shows it without asking for a refresh.
    const deliveries = page.getByRole("table", { name: "Deliveries" });
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByRole("status").filter({ hasText: "A test event is on its way" }).waitFor();
    const failed = deliveries.getByRole("row").filter({ hasText: /Failed/ });
    await failed.waitFor({ timeout: 15_000 });
    expect(await failed.textContent()).toContain("Nothing answered at the address");
    expect(await failed.textContent()).toContain("Tried once");
    await expectPlainWords(page);
    await checkScreen(page, "webhook-failed");

    // The receiving system is up, and slow to answer: the retried delivery is seen on its way, then delivered.
    const up = await startReceiver(port);
    up.respond = () => ({ status: 200, delayMs: 2500 });
    try {
      await failed.getByRole("button", { name: /^Retry now: Test event of / }).click();
      await page.getByRole("status").filter({ hasText: "Sending it again now." }).waitFor();
      const onItsWay = deliveries.getByRole("row").filter({ hasText: "Waiting" });
      await onItsWay.waitFor({ timeout: 5000 });
      await checkScreen(page, "webhook-sending");
      await deliveries.getByRole("row").filter({ hasText: "Delivered" }).waitFor({ timeout: 15_000 });
      expect(await onItsWay.count()).toBe(0);
      await up.waitFor(1);
      // The failed row names its successor and offers no second retry.
      expect(await failed.textContent()).toContain("Sent again since");
      expect(await failed.getByRole("button", { name: /^Retry now/ }).count()).toBe(0);
      // Nothing on its way any more: the page stops asking.
      const asked: string[] = [];
      page.on("request", (r) => void (r.url().includes("/deliveries") && asked.push(r.url())));
      // Two of its polling intervals (POLL_MS) pass on the page's clock, not the test's.
      await page.clock.runFor(4500);
      await page.evaluate(() => fetch("/healthz"));
      expect(asked).toEqual([]);
      await expectPlainWords(page);
      await checkScreen(page, "webhook-redelivered");
    } finally {
      await up.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});

describe(`the portal's webhooks at ${WIDTHS[0]} px, their screens at ${WIDTHS.join(" and ")} px`, () => {
  const width = WIDTHS[0];

  it("shows the shipment a delivery is about (the link opens it) and exactly what it sends", async () => {
    const path = `/shipments-${width}`;
    const url = rx.url(path);
    await createEndpoint(url, ["inbound_shipment.status_changed"]);
    const ref = `PO-WEBHOOKS-${width}`;
    const created = await m.POST("/inbound_shipments/_create", { body: announcement({ merchants_ref: ref }) });
    expect(created.response.status).toBe(201);
    const shipmentId = created.data!.shipment_id;
    const arrived = await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
      params: { path: { shipment_id: shipmentId } },
      body: { arrivals: [{ merchants_id: "SKU-1001", change: 2 }] },
    });
    expect(arrived.response.status).toBe(200);
    const [received] = await rx.waitFor(1, { path });

    const { page, errors } = await openEndpoint(width, url);
    const row = page
      .getByRole("table", { name: "Deliveries" })
      .getByRole("row")
      .filter({ hasText: "Shipment status changed" });
    await row.filter({ hasText: "Delivered" }).waitFor({ timeout: 15_000 });
    expect(await row.getByRole("link", { name: `Shipment ${ref}` }).getAttribute("href")).toBe(
      `#/shipments/${shipmentId}`,
    );
    await row.getByRole("link", { name: /^Details: Shipment status changed of / }).click();

    await page.getByRole("heading", { level: 1, name: "Shipment status changed" }).waitFor();
    const body = page.getByRole("region", { name: "What we send" });
    await body.waitFor();
    // Pretty-printed, and the very body the receiving system got.
    const text = (await body.textContent()) ?? "";
    expect(text).toContain(`"merchants_ref": "${ref}"`);
    expect(JSON.parse(text)).toEqual(JSON.parse(received!.body));
    // Its own box: wider content scrolls inside it, never the page, at every width.
    const inside = async () => {
      const box = await body.evaluate((el) => ({ width: el.getBoundingClientRect().right, view: innerWidth }));
      expect(box.width).toBeLessThanOrEqual(box.view);
    };
    await inside();
    await atNarrowerWidths(page, inside);
    await expectPlainWords(page);
    await checkScreenAtWidths(page, "webhook-delivery");

    await page.getByRole("link", { name: `Shipment ${ref}` }).click();
    await page.getByRole("heading", { level: 1, name: ref }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe(`#/shipments/${shipmentId}`);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it("makes a new signing secret only after a confirmation, shows it once with a Copy button and how long the old one works; turns sending off only after a confirmation", async () => {
    const path = `/rotate-${width}`;
    const url = rx.url(path);
    const ep = await createEndpoint(url, ["webhook.test"]);
    const at = { params: { path: { webhook_id: ep.id } } };
    const { page, errors } = await openEndpoint(width, url);

    // Asked first; Cancel changes nothing.
    await page.getByRole("button", { name: "Make a new signing secret" }).click();
    const ask = page.getByRole("dialog", { name: "Make a new signing secret?" });
    await ask.waitFor();
    expect(await ask.textContent()).toContain("For 24 hours we sign every event with both the old and the new secret");
    await checkScreenAtWidths(page, "webhook-rotate-confirm");
    await ask.getByRole("button", { name: "Cancel" }).click();
    await ask.waitFor({ state: "detached" });
    expect((await m.GET("/webhook_endpoints/{webhook_id}", at)).data!.updated_at).toBe(ep.updated_at);

    await page.getByRole("button", { name: "Make a new signing secret" }).click();
    await ask.getByRole("button", { name: "Make a new secret" }).click();
    const shownOnce = page.getByRole("article", { name: "New signing secret" });
    await shownOnce.waitFor();
    const secret = (await shownOnce.locator("pre").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(ep.secret);
    const rotatedAt = (await m.GET("/webhook_endpoints/{webhook_id}", at)).data!.updated_at;
    const until = await shown(page, new Date(Date.parse(rotatedAt) + 24 * 3600_000));
    expect(await shownOnce.textContent()).toContain(`The old secret keeps working for 24 hours, until ${until}`);
    await shownOnce.getByRole("button", { name: "Copy secret" }).click();
    await expect.poll(() => shownOnce.getByRole("status").textContent()).toMatch(/^(Copied\.|Selected: press Ctrl\+C)/);
    await expectPlainWords(page);
    await checkScreenAtWidths(page, "webhook-secret");
    // The secret shown is the one that signs now, beside the old one for the overlap.
    expect((await m.POST("/webhook_endpoints/{webhook_id}/_test", at)).response.status).toBe(202);
    const [got] = await rx.waitFor(1, { path });
    expect(verifyWebhook(secret, got!.headers, got!.body)).toMatchObject({ event_type: "webhook.test" });
    expect(verifyWebhook(ep.secret, got!.headers, got!.body)).toMatchObject({ event_type: "webhook.test" });
    await shownOnce.getByRole("button", { name: "I have stored it" }).click();
    await shownOnce.waitFor({ state: "detached" });

    // Turning sending off says what will happen first.
    await page.getByRole("button", { name: "Turn sending off" }).click();
    const off = page.getByRole("dialog", { name: "Turn sending off?" });
    await off.waitFor();
    expect(await off.textContent()).toContain("Events that happen while it is off are not sent later");
    await checkScreenAtWidths(page, "webhook-off-confirm");
    await off.getByRole("button", { name: "Cancel" }).click();
    await off.waitFor({ state: "detached" });
    expect((await m.GET("/webhook_endpoints/{webhook_id}", at)).data!.enabled).toBe(true);
    await page.getByRole("button", { name: "Turn sending off" }).click();
    await off.getByRole("button", { name: "Turn sending off" }).click();
    await page.getByRole("status").filter({ hasText: "Sending turned off." }).waitFor();
    await page.getByText("Turned off", { exact: true }).waitFor();
    expect((await m.GET("/webhook_endpoints/{webhook_id}", at)).data!.enabled).toBe(false);
    await checkScreenAtWidths(page, "webhook-turned-off");
    await page.getByRole("button", { name: "Turn sending back on" }).click();
    await page.getByRole("status").filter({ hasText: "Sending turned back on." }).waitFor();
    expect((await m.GET("/webhook_endpoints/{webhook_id}", at)).data!.enabled).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it("says in plain words, with the time, that the receiving system asked us to wait when Retry now is refused", async () => {
    const path = `/busy-${width}`;
    const url = rx.url(path);
    const ep = await createEndpoint(url, ["webhook.test"]);
    const sent = await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } });
    expect(sent.response.status).toBe(202);
    await rx.waitFor(1, { path });
    // As the dispatcher leaves a delivery whose receiver answered 429 with Retry-After: an hour.
    const until = await sql<{ until: Date }>`
      update webhook_deliveries set status = 'pending', attempts = 1, last_response_status = 429,
        last_failure_class = 'http_4xx', last_error = 'HTTP 429 from endpoint',
        due_at = now() + interval '1 hour', receiver_not_before = now() + interval '1 hour'
      where id = ${sent.data!.delivery_id} returning receiver_not_before as until`.execute(rig.srv.handle.db);
    const { page, errors } = await openEndpoint(width, url, [409]);
    const row = page.getByRole("table", { name: "Deliveries" }).getByRole("row").filter({ hasText: "Waiting" });
    expect(await row.textContent()).toContain("Your system said it was busy and asked us to wait.");
    await row.getByRole("button", { name: /^Retry now: Test event of / }).click();
    const said = page.getByRole("alert").filter({ hasText: "Your system asked us to wait before sending again" });
    await said.waitFor();
    expect(await said.textContent()).toContain(`until ${await shown(page, until.rows[0]!.until)}`);
    expect(await said.textContent()).not.toMatch(/Retry-After|\d{4}-\d{2}-\d{2}T|409/);
    await expectPlainWords(page);
    await checkScreenAtWidths(page, "webhook-asked-to-wait");
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it("tells in plain words that events are not being sent to an endpoint the service turned off, and turns it back on", async () => {
    // A receiver that says its address is gone for good: the service turns the endpoint off at the first answer.
    const gone = await startReceiver();
    gone.respond = () => 410;
    try {
      const url = gone.url(`/gone-${width}`);
      const ep = await createEndpoint(url, ["webhook.test"]);
      const at = { params: { path: { webhook_id: ep.id } } };
      expect((await m.POST("/webhook_endpoints/{webhook_id}/_test", at)).response.status).toBe(202);
      await expect
        .poll(async () => (await m.GET("/webhook_endpoints/{webhook_id}", at)).data?.enabled, { timeout: 15_000 })
        .toBe(false);

      const { page, errors } = await openPortal(rig, width, { as: USER, clock: true });
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
      const alert = page.getByRole("alert", { name: `Events are not being sent to ${url}` });
      await alert.waitFor();
      const words = (await alert.textContent()) ?? "";
      expect(words).toContain("Your system answered that this address is no longer in use");
      // Plain words: no status code, no field name, no timestamp (outside the address, whose random port may hold "410").
      expect(words.replace(url, "")).not.toMatch(/410|Gone|disabled_reason|\d{4}-\d{2}-\d{2}T/);
      expect(await page.getByRole("row", { name: new RegExp(escape(url)) }).textContent()).toContain(
        "Stopped: not receiving",
      );
      await expectPlainWords(page);
      await checkScreenAtWidths(page, "webhook-stopped");

      await alert.getByRole("link", { name: "Open this endpoint" }).click();
      await page.getByRole("alert", { name: "Events are not being sent" }).waitFor();
      const failed = page
        .getByRole("table", { name: "Deliveries" })
        .getByRole("row")
        .filter({ hasText: /Failed/ });
      expect(await failed.textContent()).toContain("gone for good");
      // Sending is off: nothing to retry until it is turned back on.
      expect(await failed.getByRole("button", { name: /^Retry now/ }).count()).toBe(0);
      await expectPlainWords(page);
      await checkScreenAtWidths(page, "webhook-stopped-endpoint");

      await page.getByRole("button", { name: "Turn sending back on" }).click();
      await page.getByRole("status").filter({ hasText: "Sending turned back on." }).waitFor();
      await expect.poll(() => page.getByRole("alert", { name: "Events are not being sent" }).count()).toBe(0);
      await page.getByRole("button", { name: "Turn sending off" }).waitFor();
      await failed.getByRole("button", { name: /^Retry now/ }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
      const after = await m.GET("/webhook_endpoints/{webhook_id}", at);
      expect([after.data!.enabled, after.data!.disabled_reason]).toEqual([true, null]);
    } finally {
      await gone.close();
    }
  }, 180_000);
});
