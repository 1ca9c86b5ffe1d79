// The check every page's journey relies on (helpers/browser.ts) fails on a page that breaks WCAG 2.1 AA, naming
// each violation, and passes a page that keeps it.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { closeContexts, expectAccessible, sharedChromium } from "../helpers/browser.ts";

let browser: Browser;
beforeAll(async () => void (browser = await sharedChromium()));
afterAll(async () => await closeContexts(browser));

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1>${body}</main></body></html>`;

it("names an image without words and grey text on white; passes a page without them", async () => {
  const p = await browser.newPage();
  await p.setContent(
    page(`<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p style="color:#bbb;background:#fff">faint</p>`),
  );
  const failure = await expectAccessible(p).then(
    () => "passed",
    (e: Error) => e.message + JSON.stringify((e as { actual?: unknown }).actual),
  );
  expect(failure).toMatch(/image-alt \(critical\)/);
  expect(failure).toMatch(/color-contrast \(serious\)/);
  // Once a page has axe, a later check on a new document puts it there again.
  await p.setContent(page(`<p>Plain text.</p>`));
  await expectAccessible(p);
  await p.close();
});
