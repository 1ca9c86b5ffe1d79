// /docs and /docs/guide in a real browser, as a merchant's developer reads them: every tag and webhook
// event is there, nothing is requested from another origin, no console error. Screenshots go to
// .tmp/screenshots/ to be looked at.
import { mkdirSync, readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeContexts, expectAccessible, sharedChromium } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const spec = JSON.parse(readFileSync("generated/openapi.json", "utf8")) as {
  tags: { name: string }[];
  webhooks: Record<string, { post: { summary: string } }>;
};
const SHOTS = ".tmp/screenshots";

let srv: TestServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  browser = await sharedChromium();
}, 60_000);
afterAll(async () => {
  await closeContexts(browser);
  await srv?.close();
});

/** A page that records console errors and every request, and refuses any that leaves the origin. */
async function open(path: string) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`${srv.origin}/`) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  await page.goto(`${srv.origin}${path}`, { waitUntil: "networkidle" });
  return { page, errors, foreign };
}

async function sidebarLabels(page: Page): Promise<string[]> {
  return page.locator(".menu-content label, .menu-content li").allInnerTexts();
}

describe("/docs", () => {
  it("renders the whole contract with Redoc from the service's own files", async () => {
    const { page, errors, foreign } = await open("/docs");
    await page
      .getByRole("heading", { name: /Logistics API/ })
      .first()
      .waitFor({ timeout: 20_000 });
    const labels = (await sidebarLabels(page)).join("\n");
    for (const tag of spec.tags) expect(labels, tag.name).toContain(tag.name);
    // Every webhook event, with its payload schema, in the reference.
    for (const [type, hook] of Object.entries(spec.webhooks)) {
      expect(labels, type).toContain(hook.post.summary);
    }
    // waitFor, not isVisible(): this fails unless the security scheme is shown.
    await page.getByText("basicAuth", { exact: false }).first().waitFor({ state: "visible", timeout: 10_000 });
    await page.screenshot({ path: `${SHOTS}/docs.png` });
    // A webhook event's section shows its payload and the signature headers.
    const menu = page.locator(".menu-content");
    await menu.getByText("Webhooks", { exact: true }).first().click();
    await menu.getByText("Items of an inbound shipment arrived").first().click();
    await page.getByText("webhook-signature").first().waitFor();
    await page.screenshot({ path: `${SHOTS}/docs-webhook.png` });
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("links to a guide with getting started, authentication, idempotency, pagination, webhooks and the events feed", async () => {
    const { page, errors, foreign } = await open("/docs");
    await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Guide" }).click();
    await page.waitForURL(`${srv.origin}/docs/guide`);
    for (const name of [
      "Getting started",
      "Authentication",
      "Errors",
      "Idempotency",
      "Pagination",
      "Webhooks",
      "The events feed",
    ]) {
      await expect(page.getByRole("heading", { level: 2, name }).isVisible(), name).resolves.toBe(true);
    }
    await expect(page.getByText("verifyWebhookEvents(process.env.WEBHOOK_SECRET").isVisible()).resolves.toBe(true);
    await page.screenshot({ path: `${SHOTS}/guide.png`, fullPage: true });
    await page.getByRole("link", { name: "API reference" }).first().click();
    await page.waitForURL(`${srv.origin}/docs`);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("/ and /client/ in a browser", () => {
  it.each([
    [1280, 800],
    [360, 740],
  ])("are pages of links in plain words, accessible, nothing sideways, at %i px", async (width, height) => {
    for (const [path, heading] of [
      ["/", "Logistics API"],
      ["/client/", /^@logistics-api\/client \d+\.\d+\.\d+$/],
    ] as const) {
      const { page, errors, foreign } = await open(path);
      await page.setViewportSize({ width, height });
      await expect.poll(() => page.getByRole("heading", { level: 1, name: heading }).count()).toBe(1);
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `${SHOTS}/home${path === "/" ? "" : "-client"}-${width}.png`, fullPage: true });
      if (path === "/") {
        await page.getByRole("link", { name: "Client package" }).click();
        await page.getByRole("heading", { level: 1, name: /@logistics-api\/client/ }).waitFor();
      }
      expect(errors).toEqual([]);
      expect(foreign).toEqual([]);
      await page.close();
    }
  });
});
