// The merchant portal's browser journeys share this: the production build the test set-up made once, a
// server, Debian's Chromium, a page per width that fails on any console error, page error, CSP violation or
// request to another origin, and one check per screen (axe-core, no sideways scroll, a screenshot to look at).
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect, inject } from "vitest";
import { CATALOGUES, pickLang } from "../../portal/src/words/index.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { closeContexts, expectAccessible, sharedChromium } from "./browser.ts";
import { startTestServer, type TestServer, type TestServerOptions } from "./server.ts";

export const DB = process.env.TEST_DB ?? "pglite";
export const SHOTS = `.tmp/screenshots/${DB}`;
/**
 * Desktop and phone: every screen is checked at both (checkScreen). A journey runs at both where the layout changes
 * what the person does; elsewhere it runs at the first and checks its screens at both (checkScreenAtWidths).
 */
export const WIDTHS = [1280, 375] as const;

export interface PortalRig {
  srv: TestServer;
  browser: Browser;
  close: () => Promise<void>;
}

/** Browser contexts signed in once per file (openPortal's `as`), by width, locale and person. */
const signedInContexts = new WeakMap<PortalRig, Map<string, Promise<BrowserContext>>>();

/** A server with the portal built as `npm start` builds it (by the test set-up, global-setup.ts). */
export async function startPortalRig(opts: TestServerOptions = {}): Promise<PortalRig> {
  mkdirSync(SHOTS, { recursive: true });
  const srv = await startTestServer({ ...opts, portalDir: inject("portalDir") });
  const browser = await sharedChromium();
  return {
    srv,
    browser,
    close: async () => {
      await closeContexts(browser);
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
 *
 * With `as`, the page opens already signed in as that person: the file's browser signs in through the form once
 * per width and locale, and every later page of that person shares the signed-in context (its cookie and the
 * portal's signed-in hint), as a second tab of one browser would. A journey about signing in itself leaves it out.
 */
export async function openPortal(
  rig: PortalRig,
  width: number,
  opts: {
    expected?: number[];
    locale?: string;
    hash?: string;
    deviceScaleFactor?: number;
    as?: { email: string; password: string };
    /**
     * Playwright's clock in the page from its first script on (time flows as usual): a test then moves the page's
     * timers on with `page.clock.runFor` to see that nothing is asked, instead of waiting that long.
     */
    clock?: boolean;
  } = {},
): Promise<PortalPage> {
  const settings = {
    viewport: { width, height: 900 },
    locale: opts.locale ?? "en-GB",
    deviceScaleFactor: opts.deviceScaleFactor,
  };
  let context: BrowserContext;
  if (opts.as) {
    const contexts = signedInContexts.get(rig) ?? new Map<string, Promise<BrowserContext>>();
    signedInContexts.set(rig, contexts);
    const key = JSON.stringify([settings, opts.as.email, opts.clock ?? false]);
    let made = contexts.get(key);
    if (!made) {
      const { email, password } = opts.as;
      made = rig.browser.newContext(settings).then(async (c) => {
        if (opts.clock) await c.clock.install();
        const first = await watchedPage(rig, c, []);
        await first.page.goto(`${rig.srv.origin}/portal/`);
        await signIn(first.page, email, password);
        expect(first.errors).toEqual([]);
        await first.page.close();
        return c;
      });
      contexts.set(key, made);
    }
    context = await made;
  } else {
    context = await rig.browser.newContext(settings);
    if (opts.clock) await context.clock.install();
  }
  const portal = await watchedPage(rig, context, opts.expected ?? []);
  // A page of its own context takes the context with it; a signed-in context stays for the file's next page.
  if (!opts.as) portal.page.once("close", () => void context.close().catch(() => undefined));
  await portal.page.goto(`${rig.srv.origin}/portal/${opts.hash ? `#${opts.hash}` : ""}`);
  if (opts.as) await portal.page.getByRole("navigation", { name: (await frameWords(portal.page)).main }).waitFor();
  return portal;
}

/** The portal frame's words in the page's language (the browser's first the portal speaks; one page in one). */
export const frameWords = async (page: Page) =>
  CATALOGUES[pickLang(await page.evaluate(() => [...navigator.languages]))].common;

/** A new page of `context` that records console errors, page errors and requests to another origin. */
async function watchedPage(rig: PortalRig, context: BrowserContext, expected: number[]): Promise<PortalPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  const allowed = new RegExp(`status of (${expected.join("|") || "none"})\\b`);
  page.on("console", (msg) => {
    if (msg.type() === "error" && !allowed.test(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/*", (route) =>
    route.request().url().startsWith(`${rig.srv.origin}/`)
      ? route.continue()
      : (errors.push(`foreign request ${route.request().url()}`), route.abort()),
  );
  return { page, errors, close: () => page.close() };
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  const w = await frameWords(page);
  const form = page.getByRole("form", { name: w.signInForm });
  await form.waitFor();
  await form.getByLabel(w.email, { exact: true }).fill(email);
  await form.getByLabel(w.password, { exact: true }).fill(password);
  await form.getByRole("button", { name: w.signIn }).click();
  await page.getByRole("navigation", { name: w.main }).waitFor();
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

/**
 * The checks every screen gets at the first (widest) width: axe-core, no sideways scroll, a full-page screenshot
 * `<name>-<width>.png`. At a narrower width the page is the same document with other style rules: no sideways
 * scroll always, and, for a screen the file checked at the widest width too, axe and the screenshot when a rule that
 * applies at this width and not at the widest (or the other way round) reaches an element no earlier narrow screen
 * of the file showed. The first narrow screen of a file is checked whole (the narrow base styles: font
 * scale, containers, the top bar); after it, a screen whose narrow styles were all checked before is the wide
 * screen reflowed, whose axe run said the same (axe took a third of the Pricing journeys' time).
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await expectNoSideScroll(page);
  // Per file: its worker's browser serves the files after it too (sharedChromium).
  const file = expect.getState().testPath ?? "";
  const checked = screensChecked.get(file) ?? { wide: new Set<string>(), narrow: new Set<string>() };
  screensChecked.set(file, checked);
  if (width >= WIDTHS[0]) checked.wide.add(name);
  // Only a screen the file also checked at the widest width can be that screen reflowed.
  else if (checked.wide.has(name)) {
    const first = checked.narrow.size === 0;
    const fresh = (await narrowStyles(page, WIDTHS[0])).filter((rule) => !checked.narrow.has(rule));
    for (const rule of ["(a narrow screen)", ...fresh]) checked.narrow.add(rule);
    if (!first && fresh.length === 0) return;
  }
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/portal-${name}-${width}.png`, fullPage: true });
}

/**
 * `check` at each width of WIDTHS narrower than the page's (the widest): the page is narrowed to each in turn and
 * widened back, its state unchanged. It is the same document with its narrow style rules applied (the portal's
 * layout is its style sheet's: no script of it asks the width), so a journey whose steps are the same at every
 * width runs once, at the widest, and checks at the narrower widths what the layout decides there.
 */
export async function atNarrowerWidths(page: Page, check: (width: number) => Promise<unknown>): Promise<void> {
  const size = page.viewportSize();
  if (!size || size.width !== WIDTHS[0]) throw new Error(`atNarrowerWidths: open the page at ${WIDTHS[0]} px`);
  for (const width of WIDTHS.slice(1)) {
    await page.setViewportSize({ width, height: size.height });
    try {
      await check(width);
    } finally {
      await page.setViewportSize(size);
    }
  }
}

/** `checkScreen` at every width of WIDTHS, on a page at the widest (see atNarrowerWidths). */
export async function checkScreenAtWidths(page: Page, name: string): Promise<void> {
  await checkScreen(page, name);
  await atNarrowerWidths(page, () => checkScreen(page, name));
}

/** Per test file: the screens checked at the widest width, and the width-dependent rules checked narrower. */
const screensChecked = new Map<string, { wide: Set<string>; narrow: Set<string> }>();

/**
 * The style rules whose media query holds at this width and not at `wide`, or at `wide` and not here, that match an
 * element shown on the page (as `<media> <selector>`). A query with anything but min-/max-width in px counts as
 * width-dependent whenever it names a width at all.
 */
function narrowStyles(page: Page, wide: number): Promise<string[]> {
  return page.evaluate((wide) => {
    const here = window.innerWidth;
    const holdsAt = (media: string, w: number): boolean | undefined => {
      const parts = media.split(/\s+and\s+/);
      let holds = true;
      for (const part of parts) {
        const m = /^\(\s*(min|max)-width\s*:\s*(\d+(?:\.\d+)?)px\s*\)$/.exec(part.trim());
        if (!m) return undefined;
        holds &&= m[1] === "min" ? w >= Number(m[2]) : w <= Number(m[2]);
      }
      return holds;
    };
    const found = new Set<string>();
    const visit = (rules: CSSRuleList, media: string | undefined) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSMediaRule) {
          const text = rule.media.mediaText;
          if (!/width/.test(text)) {
            if (window.matchMedia(text).matches) visit(rule.cssRules, media);
            continue;
          }
          const now = holdsAt(text, here);
          const then = holdsAt(text, wide);
          if (now === undefined || then === undefined || now !== then) visit(rule.cssRules, text);
          else if (now) visit(rule.cssRules, media);
        } else if (media && rule instanceof CSSStyleRule) {
          // A pseudo-element is styled on its element: match the element.
          const selector = rule.selectorText.replace(/::?(before|after|marker|placeholder|backdrop)\b/g, "");
          try {
            // Only what shows: a rule for the inside of a closed <details> is checked once it is open.
            const shown = Array.from(document.querySelectorAll(selector || "*")).some(
              (e) => e.getClientRects().length > 0,
            );
            if (shown) found.add(`${media} ${rule.selectorText}`);
          } catch {
            found.add(`${media} ${rule.selectorText}`); // a selector this browser cannot match: counted, to be safe
          }
        }
      }
    };
    for (const sheet of Array.from(document.styleSheets)) {
      let rules: CSSRuleList;
      try {
        rules = sheet.cssRules;
      } catch {
        found.add(`${sheet.href} unreadable`); // another origin's sheet (none today): counted, to be safe
        continue;
      }
      visit(rules, undefined);
    }
    return [...found];
  }, wide);
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
