// Debian's Chromium driven by playwright-core (never a browser downloaded by a test tool). The flags keep
// it from reaching for Google's services, which this machine's closed network refuses.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * This worker process's Chromium: launched by the first browser file the worker runs and used by the next ones
 * (vitest keeps a worker's modules from file to file: isolate is false), ended with the process (playwright ends the
 * browsers it launched when its process exits). A launch and its close took ~1 s of a file's time on 2 cores; a new
 * context takes ~0.2 s. A file makes contexts of its own and closes them at its end (closeContexts).
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launched = launchChromium();
    shared = launched;
    launched.then(
      (b) => b.on("disconnected", () => void (shared === launched && (shared = undefined))),
      () => void (shared === launched && (shared = undefined)),
    );
  }
  return shared;
}

/** A file's end with the shared Chromium: its contexts closed, their pages with them (a worker runs one file at a time). */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((c) => c.close()));
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe-core's WCAG 2.1 A and AA rules on the page as it is now: every violation named, none allowed. axe runs in
 * the page itself, put there once per document, and reports violations only: @axe-core/playwright injected it anew
 * for every check and finished each run in a page of its own (a portal screen's check took 2.7 s; now 1.0 s).
 */
export async function expectAccessible(page: Page): Promise<void> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const r = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  }, WCAG_21_AA);
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(", ")}`)).toEqual([]);
}

/**
 * Every touch target on the page smaller than `min` CSS px either way (WCAG 2.2's 2.5.8 minimum is 24): links,
 * buttons, form controls and summaries that are shown, measured by their boxes. A link inside a sentence is exempt
 * (2.5.8's inline exception): one whose parent has text of its own beside it. A radio or checkbox counts with its
 * label when the label wraps it (the label is what a finger presses). Each as "<what> WxH".
 */
export function smallTargets(page: Page, min = 24): Promise<string[]> {
  return page.evaluate((min) => {
    const out: string[] = [];
    const roots: (Document | ShadowRoot)[] = [document];
    for (const el of document.querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
    for (const root of roots) {
      for (const el of root.querySelectorAll<HTMLElement>(
        "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])",
      )) {
        const style = getComputedStyle(el);
        if (style.visibility === "hidden" || style.display === "none") continue;
        const parent = el.parentElement;
        const inline =
          el.tagName === "A" &&
          parent !== null &&
          [...parent.childNodes].some((n) => n !== el && n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== "");
        if (inline) continue;
        const box = (
          el instanceof HTMLInputElement && (el.type === "radio" || el.type === "checkbox") && el.closest("label")
            ? el.closest("label")!
            : el
        ).getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.width < min || box.height < min) {
          const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40);
          out.push(
            `${el.tagName.toLowerCase()}${name ? ` "${name}"` : ""} ${Math.round(box.width)}x${Math.round(box.height)}`,
          );
        }
      }
    }
    return out;
  }, min);
}

/**
 * What keeps `target` from being seen where it is now, without scrolling the page or any box it is in: "" when
 * its whole box is inside the screen and inside every ancestor that clips or scrolls (each as it is scrolled now),
 * and the element on top at its centre is itself or inside it (not a sticky bar over it).
 */
export function hiddenFromView(target: Locator): Promise<string> {
  return target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).split(" ")[0]}` : ""}`;
    const outside = (r: { top: number; bottom: number; left: number; right: number }) =>
      box.top < r.top - 0.5 || box.bottom > r.bottom + 0.5 || box.left < r.left - 0.5 || box.right > r.right + 0.5;
    const at = (r: DOMRect) => `${Math.round(r.top)}..${Math.round(r.bottom)}`;
    if (box.width === 0 || box.height === 0) return "it has no size";
    if (outside({ top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth }))
      return `its box (${at(box)}) is outside the screen (0..${window.innerHeight})`;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowY === "visible" && getComputedStyle(a).overflowX === "visible") continue;
      const clip = a.getBoundingClientRect();
      if (outside(clip)) return `its box (${at(box)}) is outside ${name(a)}'s visible part (${at(clip)})`;
    }
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top && (top === el || el.contains(top)) ? "" : `${top ? name(top) : "nothing"} is on top of it`;
  });
}

/**
 * A shop's page for the checkout picker's browser tests: a server on 127.0.0.1 answering every request with `html()`
 * (read at each request, so a test may change what it shows), and its origin, which a publishable key lists.
 */
export async function startShop(html: () => string): Promise<{ origin: string; close: () => void }> {
  const { createServer } = await import("node:http");
  const shop = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html());
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  const { port } = shop.address() as import("node:net").AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => shop.close() };
}
