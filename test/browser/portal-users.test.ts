// The Users area and one's own password in a real browser, at desktop and phone width: an admin adds a staff
// user (the API's message next to a short password), changes their role and resets their password; that person
// signs in with the temporary password, can do nothing but choose a new one (or sign out), does, works, sees no
// Users area, and later changes the password again from the account's link. An admin removes a person after a
// confirmation (cancelled once first): the person's cookie answers 401 at once and their open page falls back
// to the sign-in form. The shop's only admin can be neither made staff nor removed, said in plain words. After
// each change the merchant's own API client (HTTP Basic) reads what is stored. Screenshots in
// .tmp/screenshots/<db>/portal-*.png.
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import {
  checkScreen,
  expectPlainWords,
  openPortal,
  portalUser,
  signIn,
  startPortalRig,
  WIDTHS,
  type PortalRig,
} from "../helpers/portal.ts";

// A busy machine (two cores, the suite beside): generous waits, never a fixed sleep.
const POLL = { timeout: 15_000 };
const JOURNEY_MS = 300_000;

let rig: PortalRig;

beforeAll(async () => {
  rig = await startPortalRig();
}, 180_000);
afterAll(async () => {
  await rig?.close();
});

/** What the merchant's API says is stored: each portal user's role by email. */
async function stored(m: LogisticsClient): Promise<Record<string, string>> {
  const r = await m.GET("/portal_users");
  expect(r.response.status).toBe(200);
  return Object.fromEntries(r.data!.items.map((u) => [u.email, u.role]));
}

const api = (path: string) => `${rig.srv.origin}/2015-01-01${path}`;

/** Signs in through the API (not the browser): the session cookie, as `name=value`. */
async function apiSession(email: string, password: string): Promise<string> {
  const r = await fetch(api("/portal_sessions/_create"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(r.status).toBe(201);
  const cookie = r.headers.getSetCookie().find((c) => c.startsWith("portal_session="));
  expect(cookie).toBeDefined();
  return cookie!.split(";")[0]!;
}

/** The browser's session cookie, as `name=value`. */
async function browserCookie(page: Page): Promise<string> {
  const c = (await page.context().cookies()).find((k) => k.name === "portal_session");
  expect(c).toBeDefined();
  return `${c!.name}=${c!.value}`;
}

/** A GET with a session cookie: its status and body. */
async function getWith(cookie: string, path: string): Promise<{ status: number; body: unknown }> {
  const r = await fetch(api(path), { headers: { cookie, "x-csrf-token": "-" } });
  return { status: r.status, body: await r.json().catch(() => undefined) };
}

async function openUsers(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
  const table = page.getByRole("table", { name: "Users" });
  await table.waitFor();
  return table;
}

const rowOf = (page: Page, email: string) =>
  page.getByRole("table", { name: "Users" }).getByRole("row").filter({ hasText: email });

// Both journeys run at both widths: on a phone the Users table becomes a stack of cards, and the admin changes a
// role, resets a password and removes a person from inside one.
for (const width of WIDTHS) {
  it(
    `an admin adds a staff user (the API's message at a short password), changes their role and resets their password; the person must choose a new password before anything else, does, works without a Users area, and changes it again later (${width} px)`,
    async () => {
      const M = `users-a-${width}.example.com`;
      const anna = { email: `anna@${M}`, password: "anna-admin-password" };
      const bob = { email: `bob@${M}`, password: "bob-first-password" };
      const TEMP = "temporary-4821-pw";
      const CHOSEN = "bobs-own-password-1";
      const LATER = "bobs-later-password-2";
      const m = await portalUser(rig, M, anna.email, anna.password);

      // The admin, and a form sent with a short password: the API's words next to the field.
      const admin = await openPortal(rig, width, { expected: [400] });
      let page = admin.page;
      await signIn(page, anna.email, anna.password);
      const table = await openUsers(page);
      await expect.poll(() => table.textContent(), POLL).toContain(anna.email);
      expect(await rowOf(page, anna.email).textContent()).toContain("(you)");
      await checkScreen(page, "users");

      const form = page.getByRole("form", { name: "New user" });
      await form.getByLabel("Email of the new user").fill(bob.email);
      const initial = form.getByLabel("Initial password");
      await initial.fill("short");
      await form.getByRole("button", { name: "Add user" }).click();
      await expect.poll(() => initial.getAttribute("aria-invalid"), POLL).toBe("true");
      await form.getByText("The password is too short: use at least 10 characters.").waitFor();
      await expectPlainWords(page);
      await checkScreen(page, "users-add-refused");
      expect(await stored(m)).toEqual({ [anna.email]: "admin" });

      await initial.fill(bob.password);
      expect(await form.getByLabel("Role").inputValue()).toBe("staff");
      await form.getByRole("button", { name: "Add user" }).click();
      await form
        .getByRole("status")
        .filter({ hasText: `${bob.email} can now sign in.` })
        .waitFor(POLL);
      await rowOf(page, bob.email).waitFor(POLL);
      expect(await initial.getAttribute("aria-invalid")).toBeNull();
      expect(await stored(m)).toEqual({ [anna.email]: "admin", [bob.email]: "staff" });

      // Bob's role: Administrator, then Staff again. The role shows in words, in the choice itself.
      const role = rowOf(page, bob.email).getByRole("combobox", { name: `Role of ${bob.email}` });
      expect(await role.locator("option:checked").textContent()).toBe("Staff");
      await role.selectOption({ label: "Administrator" });
      await page.getByRole("button", { name: `Save role of ${bob.email}` }).click();
      await table
        .getByRole("status")
        .filter({ hasText: `The role of ${bob.email} is now Administrator. They were signed out` })
        .waitFor(POLL);
      expect(await page.getByRole("button", { name: `Save role of ${bob.email}` }).count()).toBe(0);
      expect(await stored(m)).toEqual({ [anna.email]: "admin", [bob.email]: "admin" });
      await checkScreen(page, "users-role-changed");
      await role.selectOption({ label: "Staff" });
      await page.getByRole("button", { name: `Save role of ${bob.email}` }).click();
      await table
        .getByRole("status")
        .filter({ hasText: `The role of ${bob.email} is now Staff.` })
        .waitFor(POLL);
      expect(await stored(m)).toEqual({ [anna.email]: "admin", [bob.email]: "staff" });

      // A reset: Bob's session elsewhere ends at once; a temporary password too short is refused at its field.
      const bobsOtherSession = await apiSession(bob.email, bob.password);
      expect((await getWith(bobsOtherSession, "/portal_sessions/current")).status).toBe(200);
      await rowOf(page, bob.email)
        .getByRole("button", { name: `Reset password of ${bob.email}` })
        .click();
      const dialog = page.getByRole("dialog", { name: `Reset the password of ${bob.email}?` });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain("at their next sign-in they must choose a new password");
      const temp = dialog.getByLabel("Temporary password (at least 10 characters)");
      await temp.fill("tmp-12");
      await dialog.getByRole("button", { name: "Set temporary password" }).click();
      await expect.poll(() => temp.getAttribute("aria-invalid"), POLL).toBe("true");
      await dialog.getByText("The password is too short: use at least 10 characters.").waitFor();
      await expectPlainWords(page);
      await checkScreen(page, "users-reset-refused");
      expect((await getWith(bobsOtherSession, "/portal_sessions/current")).status).toBe(200);
      await temp.fill(TEMP);
      await dialog.getByRole("button", { name: "Set temporary password" }).click();
      await dialog.waitFor({ state: "hidden", ...POLL });
      const said = table.getByRole("status").filter({ hasText: "Temporary password set" });
      await said.waitFor(POLL);
      expect(await said.textContent()).toMatch(
        new RegExp(
          `${bob.email.replace(/\./g, "\\.")} is signed out now, and must choose a new password at their next sign-in`,
        ),
      );
      await checkScreen(page, "users-reset-done");
      expect((await getWith(bobsOtherSession, "/portal_sessions/current")).status).toBe(401);
      expect(await stored(m)).toEqual({ [anna.email]: "admin", [bob.email]: "staff" });
      expect(admin.errors).toEqual([]);
      await admin.close();

      // Bob signs in with the temporary password: only the form for a new one, and Sign out.
      const person = await openPortal(rig, width, { expected: [400] });
      page = person.page;
      const signInForm = page.getByRole("form", { name: "Sign in" });
      await signInForm.getByLabel("Email", { exact: true }).fill(bob.email);
      await signInForm.getByLabel("Password", { exact: true }).fill(TEMP);
      await signInForm.getByRole("button", { name: "Sign in" }).click();
      const gate = page.getByRole("form", { name: "Choose a new password" });
      await gate.waitFor(POLL);
      expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
      expect(
        await page.getByRole("region", { name: "Account" }).getByRole("button", { name: "Sign out" }).count(),
      ).toBe(1);
      await checkScreen(page, "password-gate");
      // Another area's address shows the same form; the API refuses this cookie anything else.
      await page.evaluate(() => (window.location.hash = "#/shipments"));
      await page.waitForFunction(() => window.location.hash === "#/shipments");
      await gate.waitFor();
      expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
      const bobsCookie = await browserCookie(page);
      expect((await getWith(bobsCookie, "/inbound_shipments")).status).toBe(403);
      expect((await getWith(bobsCookie, "/portal_sessions/current")).body).toMatchObject({
        must_change_password: true,
      });

      // The two new passwords differ: said by the page, nothing sent.
      const current = gate.getByLabel("Temporary password");
      const next = gate.getByLabel("New password (at least 10 characters)");
      const again = gate.getByLabel("New password again");
      const save = gate.getByRole("button", { name: "Save my new password" });
      await current.fill(TEMP);
      await next.fill(CHOSEN);
      await again.fill(`${CHOSEN}x`);
      await save.click();
      await expect.poll(() => again.getAttribute("aria-invalid"), POLL).toBe("true");
      await gate.getByText("The two new passwords are not the same").waitFor();
      // The temporary password again: the API's words at the new password.
      await next.fill(TEMP);
      await again.fill(TEMP);
      await save.click();
      await expect.poll(() => next.getAttribute("aria-invalid"), POLL).toBe("true");
      await gate.getByText("The new password must be different from the current one.").waitFor();
      expect(await again.getAttribute("aria-invalid")).toBeNull();
      await expectPlainWords(page);
      await checkScreen(page, "password-gate-refused");
      expect((await getWith(bobsCookie, "/portal_sessions/current")).body).toMatchObject({
        must_change_password: true,
      });

      await next.fill(CHOSEN);
      await again.fill(CHOSEN);
      await save.click();
      // The portal's frame: staff see no Users area, and its address leads to Shipments.
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.getByRole("link", { name: "Shipments" }).waitFor(POLL);
      await page.getByRole("heading", { level: 1, name: "Shipments" }).waitFor(POLL);
      expect(await nav.getByRole("link", { name: "Users" }).count()).toBe(0);
      await page.evaluate(() => (window.location.hash = "#/users"));
      await page.waitForFunction(() => window.location.hash === "#/shipments", undefined, POLL);
      await page.getByRole("heading", { level: 1, name: "Shipments" }).waitFor(POLL);
      await expectPlainWords(page);
      await checkScreen(page, "after-new-password");
      expect((await getWith(bobsCookie, "/portal_sessions/current")).body).toMatchObject({
        must_change_password: false,
      });
      expect((await getWith(bobsCookie, "/inbound_shipments")).status).toBe(200);
      expect(await stored(m)).toEqual({ [anna.email]: "admin", [bob.email]: "staff" });

      // Later, from the account's link: the current password, a new one twice; this session goes on.
      await page.getByRole("region", { name: "Account" }).getByRole("link", { name: "Change password" }).click();
      const own = page.getByRole("form", { name: "Change your password" });
      await own.waitFor(POLL);
      await own.getByLabel("Current password").fill(CHOSEN);
      await own.getByLabel("New password (at least 10 characters)").fill(LATER);
      await own.getByLabel("New password again").fill(LATER);
      await own.getByRole("button", { name: "Change password" }).click();
      await own.getByRole("status").filter({ hasText: "Your password is changed." }).waitFor(POLL);
      expect(await own.getByLabel("Current password").inputValue()).toBe("");
      await checkScreen(page, "password-changed");
      expect((await getWith(bobsCookie, "/portal_sessions/current")).status).toBe(200);
      const withLater = await apiSession(bob.email, LATER);
      expect((await getWith(withLater, "/portal_sessions/current")).status).toBe(200);
      expect(await stored(m)).toEqual({ [anna.email]: "admin", [bob.email]: "staff" });
      expect(person.errors).toEqual([]);
      await person.close();
    },
    JOURNEY_MS,
  );

  it(
    `an admin removes a person after a confirmation (cancelled once): their cookie answers 401 at once and their open page asks for a sign-in; the shop's only admin can be neither made staff nor removed (${width} px)`,
    async () => {
      const M = `users-b-${width}.example.com`;
      const anna = { email: `anna@${M}`, password: "anna-admin-password" };
      const carl = { email: `carl@${M}`, password: "carl-staff-password" };
      const m = await portalUser(rig, M, anna.email, anna.password);
      await provisionPortalUser(rig.srv.handle.db, M, carl.email, carl.password, "staff");
      expect(await stored(m)).toEqual({ [anna.email]: "admin", [carl.email]: "staff" });

      // Carl is signed in, in a browser of his own.
      const person = await openPortal(rig, width, { expected: [401] });
      await signIn(person.page, carl.email, carl.password);
      const carlsCookie = await browserCookie(person.page);
      expect((await getWith(carlsCookie, "/portal_sessions/current")).status).toBe(200);

      const admin = await openPortal(rig, width, { expected: [409] });
      const page = admin.page;
      await signIn(page, anna.email, anna.password);
      const table = await openUsers(page);
      await rowOf(page, carl.email).waitFor(POLL);

      // Cancelled: nothing changes.
      await rowOf(page, carl.email)
        .getByRole("button", { name: `Remove ${carl.email}` })
        .click();
      const confirm = page.getByRole("dialog", { name: `Remove ${carl.email}?` });
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain("They are signed out at once and can no longer sign in.");
      // A destructive button looks unlike Save: dark red, and the list's own Remove outlined in red and dashed.
      const style = (button: Locator) =>
        button.evaluate((b) => {
          const s = getComputedStyle(b);
          return { background: s.backgroundColor, border: s.borderTopStyle, color: s.color };
        });
      expect((await style(confirm.getByRole("button", { name: "Remove user" }))).background).toBe("rgb(164, 22, 26)");
      expect(await style(rowOf(page, carl.email).getByRole("button", { name: `Remove ${carl.email}` }))).toEqual({
        background: "rgba(0, 0, 0, 0)",
        border: "dashed",
        color: "rgb(164, 22, 26)",
      });
      await checkScreen(page, "users-remove-confirm");
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "hidden", ...POLL });
      expect(await stored(m)).toEqual({ [anna.email]: "admin", [carl.email]: "staff" });
      expect((await getWith(carlsCookie, "/portal_sessions/current")).status).toBe(200);

      // Confirmed: gone from the list and from the API, and Carl's cookie ends at once.
      await rowOf(page, carl.email)
        .getByRole("button", { name: `Remove ${carl.email}` })
        .click();
      await confirm.getByRole("button", { name: "Remove user" }).click();
      await page
        .getByRole("status")
        .filter({ hasText: `${carl.email} was removed: they were signed out and can no longer sign in.` })
        .waitFor(POLL);
      await expect.poll(() => rowOf(page, carl.email).count(), POLL).toBe(0);
      expect(await stored(m)).toEqual({ [anna.email]: "admin" });
      expect((await getWith(carlsCookie, "/portal_sessions/current")).status).toBe(401);
      await checkScreen(page, "users-removed");

      // Carl's open page: its next request meets the ended session, and the sign-in form comes back.
      await person.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Checkout" }).click();
      await person.page.getByRole("form", { name: "Sign in" }).waitFor(POLL);
      expect(await person.page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
      expect(person.errors).toEqual([]);
      await person.close();

      // The only admin made staff: refused in plain words, the choice back at Administrator.
      const role = rowOf(page, anna.email).getByRole("combobox", { name: `Role of ${anna.email}` });
      await role.selectOption({ label: "Staff" });
      await page.getByRole("button", { name: `Save role of ${anna.email}` }).click();
      const refusal = "This is the shop's only administrator: make someone else an administrator first.";
      await table.getByRole("alert").filter({ hasText: refusal }).waitFor(POLL);
      expect(await role.locator("option:checked").textContent()).toBe("Administrator");
      expect(await page.getByRole("button", { name: `Save role of ${anna.email}` }).count()).toBe(0);
      await expectPlainWords(page);
      await checkScreen(page, "users-last-admin");
      expect(await stored(m)).toEqual({ [anna.email]: "admin" });

      // The only admin removed (herself): refused at once in the same words, with no confirmation to answer first.
      const deletes: string[] = [];
      page.on("request", (r) => void (r.url().includes("/_delete") && deletes.push(r.url())));
      await rowOf(page, anna.email)
        .getByRole("button", { name: `Remove ${anna.email}` })
        .click();
      await table.getByRole("alert").filter({ hasText: refusal }).waitFor(POLL);
      expect(await page.getByRole("dialog").count()).toBe(0);
      expect(deletes).toEqual([]);
      await expectPlainWords(page);
      expect(await stored(m)).toEqual({ [anna.email]: "admin" });
      // Still signed in: the refusal changed nothing.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).waitFor();
      expect(admin.errors).toEqual([]);
      await admin.close();

      // An admin who removes herself (another admin stays) ends on the sign-in page, told why.
      const dora = { email: `dora@${M}`, password: "dora-admin-password" };
      await provisionPortalUser(rig.srv.handle.db, M, dora.email, dora.password, "admin");
      const own = await openPortal(rig, width, { expected: [401] });
      await signIn(own.page, dora.email, dora.password);
      await openUsers(own.page);
      await rowOf(own.page, dora.email)
        .getByRole("button", { name: `Remove ${dora.email}` })
        .click();
      const self = own.page.getByRole("dialog", { name: `Remove ${dora.email}?` });
      await self.waitFor();
      expect(await self.textContent()).toContain("You are signed out at once");
      await self.getByRole("button", { name: "Remove user" }).click();
      await own.page.getByRole("form", { name: "Sign in" }).waitFor(POLL);
      await own.page
        .getByRole("status")
        .filter({ hasText: "You removed yourself from this shop's portal, so you are signed out." })
        .waitFor(POLL);
      await checkScreen(own.page, "users-removed-yourself");
      expect(await stored(m)).toEqual({ [anna.email]: "admin" });
      expect(own.errors).toEqual([]);
      await own.close();
    },
    JOURNEY_MS,
  );
}
