// The operator's `portal-user create` as an operator runs it: a reset of an existing user's password keeps
// the user's role unless --role is given (leaving it out once promoted staff to admin).
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
