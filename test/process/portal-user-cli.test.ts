// The operator's `portal-user create` as an operator runs it: a reset of an existing user's password keeps
// the user's role unless --role is given (leaving it out once promoted staff to admin).
// It keeps the API's rules: never the last admin made staff.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { cli } from "./helpers.ts";

let env: Record<string, string>;
let dir: string | undefined;
let pg: (DatabaseHandle & { url?: string }) | undefined;

beforeAll(async () => {
  if (process.env.TEST_DB === "postgres") {
    pg = await createTestDatabase();
    env = { DATABASE_URL: pg.url! };
  } else {
    // The CLI opens the embedded database itself: this process opens it only once the CLI has ended.
    dir = mkdtempSync(path.join(tmpdir(), "logistics-portal-cli-"));
    cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
    env = { PGLITE_DIR: path.join(dir, "db"), DATABASE_URL: "" };
  }
});
afterAll(async () => {
  await pg?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function rolesOf(email: string): Promise<Record<string, string>> {
  const handle = pg ?? (await openDatabase({ pgliteDir: env.PGLITE_DIR! }));
  try {
    const rows = await handle.db
      .selectFrom("portal_users")
      .select(["merchant_id", "role"])
      .where("email", "=", email)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.merchant_id, r.role]));
  } finally {
    if (!pg) await handle.close();
  }
}

it("portal-user create: a reset of an existing user's password keeps its role when --role is left out", async () => {
  const run = async (...args: string[]) => {
    const r = await cli(args, env);
    expect(r.code, r.output).toBe(0);
    return r.output;
  };
  await run("merchant", "create", "cli-shop.example.com");
  const pw = ["--password", "a-long-password"];
  expect(
    await run("portal-user", "create", "cli-shop.example.com", "kim@example.org", ...pw, "--role", "staff"),
  ).toContain("Created portal user kim@example.org (staff) of merchant cli-shop.example.com.");
  expect(
    await run("portal-user", "create", "cli-shop.example.com", "Kim@example.org", "--password", "a-new-password"),
  ).toContain("Updated portal user kim@example.org (staff) of merchant cli-shop.example.com.");
  expect(await rolesOf("kim@example.org")).toEqual({ "cli-shop.example.com": "staff" });
}, 120_000);

it("portal-user create: the API's rules hold: the last admin is not made staff (exit 1, nothing changed); a password set here needs no change at sign-in", async () => {
  const shop = "cli-admins.example.com";
  expect((await cli(["merchant", "create", shop], env)).code).toBe(0);
  const pw = ["--password", "a-long-password"];
  expect((await cli(["portal-user", "create", shop, "ada@example.org", ...pw], env)).code).toBe(0);
  const user = async (work: (db: DatabaseHandle["db"]) => Promise<unknown>) => {
    const handle = pg ?? (await openDatabase({ pgliteDir: env.PGLITE_DIR! }));
    try {
      return await work(handle.db);
    } finally {
      if (!pg) await handle.close();
    }
  };
  const stored = () =>
    user((db) =>
      db.selectFrom("portal_users").selectAll().where("email", "=", "ada@example.org").executeTakeFirstOrThrow(),
    );
  const before = await stored();
  const demoted = await cli(
    ["portal-user", "create", shop, "ada@example.org", "--password", "another-password", "--role", "staff"],
    env,
  );
  expect(demoted.code).toBe(1);
  expect(demoted.output).toContain("last portal admin; make another user an admin first");
  expect(await stored()).toEqual(before);
  // Reset by an admin in the portal (must change at the next sign-in), then set by the operator: the user's own.
  await user((db) =>
    db.updateTable("portal_users").set({ must_change_password: true }).where("email", "=", "ada@example.org").execute(),
  );
  expect(
    (await cli(["portal-user", "create", shop, "ada@example.org", "--password", "another-password"], env)).code,
  ).toBe(0);
  expect(
    await user((db) =>
      db
        .selectFrom("portal_users")
        .select(["must_change_password", "role"])
        .where("email", "=", "ada@example.org")
        .executeTakeFirstOrThrow(),
    ),
  ).toEqual({ must_change_password: false, role: "admin" });
}, 120_000);
