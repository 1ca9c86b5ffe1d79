// Signing in to the portal in a real browser as a person who serves two shops under one email and password:
// the page asks which shop, in plain words, and opens the one chosen. Screenshot in .tmp/screenshots/.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { launchChromium } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const DB = process.env.TEST_DB ?? "pglite";
const SHOTS = `.tmp/screenshots/${DB}`;
const SHOPS = ["first-shop.example.com", "second-shop.example.com"];
const PERSON = { email: "sam@example.org", password: "sams-one-password" };

let srv: TestServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Its own build folder: the other portal journeys build theirs at the same time.
  const portalDir = path.resolve(`.tmp/portal-sign-in-${DB}`);
  execFileSync(process.execPath, ["tools/build-portal.mjs", portalDir], { stdio: "inherit" });
  srv = await startTestServer({ portalDir });
  for (const [i, shop] of SHOPS.entries()) {
    await srv.merchant(shop);
    await provisionPortalUser(srv.handle.db, shop, PERSON.email, PERSON.password, i === 0 ? "admin" : "staff");
  }
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

it("asks which shop when one email and password open two, and opens the one chosen", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // A 4xx is logged by the browser itself (the session check before sign-in is a 401): not the page's error.
  page.on(
    "console",
    (msg) => void (msg.type() === "error" && !/status of 4\d\d/.test(msg.text()) && errors.push(msg.text())),
  );
  await page.goto(`${srv.origin}/portal/`);
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email", { exact: true }).fill(PERSON.email);
  await form.getByLabel("Password", { exact: true }).fill(PERSON.password);
  await form.getByRole("button", { name: "Sign in" }).click();

  const question = form.getByRole("group", { name: /works for more than one shop\. Which shop do you want to open\?/ });
  await question.waitFor();
  expect(await question.getByRole("radio").count()).toBe(2);
  const open = form.getByRole("button", { name: "Open this shop" });
  expect(await open.isDisabled()).toBe(true); // nothing chosen yet
  await page.screenshot({ path: `${SHOTS}/portal-choose-shop.png` });
  await question.getByRole("radio", { name: SHOPS[1] }).check();
  await open.click();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shipments" }).waitFor();
  await page.getByText("Account", { exact: true }).click();
  await page.getByText(`${SHOPS[1]} · staff`).waitFor();
  // No Users area: the user of the second shop is staff there (an admin of the first).
  expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
  expect(errors).toEqual([]);
  await page.close();
});
