// The merchant portal's browser journeys share this: the production build the test set-up made once, a
// server, Debian's Chromium, a page per width that fails on any console error, page error, CSP violation or
// request to another origin, and one check per screen (axe-core, no sideways scroll, a screenshot to look at).
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { expect, inject } from "vitest";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { expectAccessible, launchChromium } from "./browser.ts";
import { startTestServer, type TestServer, type TestServerOptions } from "./server.ts";

export const DB = process.env.TEST_DB ?? "pglite";
export const SHOTS = `.tmp/screenshots/${DB}`;
/** Desktop and phone: every journey runs at both. */
export const WIDTHS = [1280, 375] as const;

export interface PortalRig {
  srv: TestServer;
  browser: Browser;
  close: () => Promise<void>;
}

/** A server with the portal built as `npm start` builds it (by the test set-up, global-setup.ts). */
export async function startPortalRig(opts: TestServerOptions = {}): Promise<PortalRig> {
  mkdirSync(SHOTS, { recursive: true });
  const srv = await startTestServer({ ...opts, portalDir: inject("portalDir") });
  const browser = await launchChromium();
  return {
    srv,
    browser,
    close: async () => {
      await browser.close();
      await srv.close();
    },
  };
}

export interface PortalPage {
  page: Page;
  /** Console errors, page errors and foreign requests so far (a journey ends with `expect(errors).toEqual([])`). */
  errors: string[];
  close: () => Promise<void>;
}

/**
 * A page at `width` on the portal. Every console error counts, the browser's own "Failed to load resource"
 * of a 4xx included (a favicon 404 or a signed-out 401 is a defect), except an answer the journey provoked
 * on purpose: pass `expected` statuses (e.g. [400] for a form sent with bad input).
 */
export async function openPortal(
  rig: PortalRig,
  width: number,
  opts: { expected?: number[]; locale?: string; hash?: string; deviceScaleFactor?: number } = {},
): Promise<PortalPage> {
  const context = await rig.browser.newContext({
    viewport: { width, height: 900 },
    locale: opts.locale ?? "en-GB",
    deviceScaleFactor: opts.deviceScaleFactor,
  });
  const page = await context.newPage();
  page.once("close", () => void context.close().catch(() => undefined));
  const errors: string[] = [];
  const allowed = new RegExp(`status of (${(opts.expected ?? []).join("|") || "none"})\\b`);
  page.on("console", (msg) => {
    if (msg.type() === "error" && !allowed.test(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/*", (route) =>
    route.request().url().startsWith(`${rig.srv.origin}/`)
      ? route.continue()
      : (errors.push(`foreign request ${route.request().url()}`), route.abort()),
  );
  await page.goto(`${rig.srv.origin}/portal/${opts.hash ? `#${opts.hash}` : ""}`);
  return { page, errors, close: () => page.close() };
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole("form", { name: "Sign in" });
  await form.waitFor();
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}

/** A merchant and a portal user of it (admin unless told), for one journey file. */
export async function portalUser(
  rig: PortalRig,
  merchant: string,
  email: string,
  password: string,
  role: "admin" | "staff" = "admin",
) {
  const client = await rig.srv.merchant(merchant);
  await provisionPortalUser(rig.srv.handle.db, merchant, email, password, role);
  return client;
}

/** Nothing wider than the screen: the page never scrolls sideways. A failure names what reaches past the edge. */
export async function expectNoSideScroll(page: Page): Promise<void> {
  const { scroll, view, past } = await page.evaluate(() => {
    const view = window.innerWidth;
    // The farthest first, and of those the innermost: one wide element widens a phone's whole layout, and then
    // every block reaches nearly as far as it does.
    const depth = (e: Element) => {
      let d = 0;
      for (let p = e.parentElement; p; p = p.parentElement) d++;
      return d;
    };
    const past = [...document.body.querySelectorAll("*")]
      .map((e) => ({ e, box: e.getBoundingClientRect(), depth: depth(e) }))
      .filter(({ box }) => box.right > view + 0.5)
      .sort((a, b) => Math.round(b.box.right) - Math.round(a.box.right) || b.depth - a.depth)
      .slice(0, 5)
      .map(
        ({ e, box }) =>
          `<${e.tagName.toLowerCase()} class="${e.className}"> ${Math.round(box.left)}-${Math.round(box.right)} px, scrolls ${e.scrollWidth} in ${e.clientWidth}: ${(e.textContent ?? "").slice(0, 60)}`,
      );
    return { scroll: document.documentElement.scrollWidth, view, past };
  });
  expect(scroll, `the page scrolls sideways: ${past.join("; ")}`).toBeLessThanOrEqual(view);
}

/** The checks every screen gets: axe-core, no sideways scroll, a full-page screenshot `<name>-<width>.png`. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  await expectNoSideScroll(page);
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SHOTS}/portal-${name}-${width}.png`, fullPage: true });
}

/** The text a person reads on the page has no schema keyword, pattern, JSON pointer or code in it. */
export async function expectPlainWords(page: Page): Promise<void> {
  const text = await page.locator("body").innerText();
  for (const bad of [
    /must (NOT )?(match|have)/,
    /\bpattern\b/,
    /\/body\//,
    /\^\\?S|\\d\{/,
    /\bminLength\b|\bmaxLength\b|\badditionalProperties\b/,
    /\bvalidation_failed\b|\binvalid_state\b|\bnot_in\b/,
    /\border\.[a-z_]+|\bpup\.[a-z_]+/,
  ])
    expect(text, `"${bad.source}" on the page`).not.toMatch(bad);
}
