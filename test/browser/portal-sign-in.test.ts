// Signing in to the portal in a real browser as a person who serves two shops under one email and password:
// the page asks which shop, in plain words, and opens the one chosen. A browser that never signed in asks the
// service nothing before the form (no 401 in its console). Screenshots in .tmp/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionPortalUser } from "../../server/portal/users.ts";
import {
  atNarrowerWidths,
  checkScreenAtWidths,
  openPortal,
  startPortalRig,
  WIDTHS,
  type PortalRig,
} from "../helpers/portal.ts";

const SHOPS = ["first-shop.example.com", "second-shop.example.com"];
const PERSON = { email: "sam@example.org", password: "sams-one-password" };

let rig: PortalRig;

beforeAll(async () => {
  rig = await startPortalRig();
  for (const [i, shop] of SHOPS.entries()) {
    await rig.srv.merchant(shop);
    await provisionPortalUser(rig.srv.handle.db, shop, PERSON.email, PERSON.password, i === 0 ? "admin" : "staff");
  }
}, 120_000);
afterAll(async () => {
  await rig?.close();
});

// At 1280 px, its screens at 375 px too (checkScreenAtWidths): on a phone the top bar puts the account on a line of
// its own and the links wrap, and a person does the same things in it; Sign out is checked in view at both widths.
describe(`signing in at ${WIDTHS[0]} px, its screens at ${WIDTHS.join(" and ")} px`, () => {
  const width = WIDTHS[0];
  it(`asks which shop when one email and password open two, and opens the one chosen (${width} px)`, async () => {
    const { page, errors, close } = await openPortal(rig, width);
    const form = page.getByRole("form", { name: "Sign in" });
    await form.waitFor();
    await checkScreenAtWidths(page, "sign-in");
    await form.getByLabel("Email", { exact: true }).fill(PERSON.email);
    await form.getByLabel("Password", { exact: true }).fill(PERSON.password);
    await form.getByRole("button", { name: "Sign in" }).click();

    const question = form.getByRole("group", {
      name: /works for more than one shop\. Which shop do you want to open\?/,
    });
    await question.waitFor();
    expect(await question.getByRole("radio").count()).toBe(2);
    const open = form.getByRole("button", { name: "Open this shop" });
    expect(await open.isDisabled()).toBe(true); // nothing chosen yet
    await checkScreenAtWidths(page, "choose-shop");
    await question.getByRole("radio", { name: SHOPS[1] }).check();
    await open.click();

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shipments" }).waitFor();
    const account = page.getByRole("region", { name: "Account" });
    await expect.poll(() => account.textContent()).toContain(`${SHOPS[1]} · Staff`);
    const signOutShown = async () =>
      expect(await account.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
    await signOutShown();
    await atNarrowerWidths(page, signOutShown);
    // No Users area: the user of the second shop is staff there (an admin of the first).
    expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
    await checkScreenAtWidths(page, "signed-in-staff");

    // The language switch: chosen here, spoken at once (the whole frame: the account's region is "Tili"),
    // remembered after a reload; the browser's again when reset.
    await account.getByRole("combobox", { name: "Language" }).selectOption({ label: "Suomi" });
    const tili = page.getByRole("region", { name: "Tili" });
    await expect.poll(() => tili.textContent()).toContain(`${SHOPS[1]} · Työntekijä`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fi");
    await page.reload();
    const switchFi = tili.getByRole("combobox", { name: "Kieli" });
    await switchFi.waitFor();
    expect(await switchFi.inputValue()).toBe("fi");
    await expect.poll(() => tili.textContent()).toContain("Työntekijä");
    expect(
      await page.getByRole("navigation", { name: "Päävalikko" }).getByRole("link", { name: "Lähetykset" }).count(),
    ).toBe(1);
    await checkScreenAtWidths(page, "signed-in-staff-fi");
    await switchFi.selectOption({ label: "English" });
    await expect.poll(() => page.getByRole("region", { name: "Account" }).textContent()).toContain("· Staff");
    expect(errors).toEqual([]);
    await close();
  });
});
