// Expand-then-contract over 0011 (one email at several merchants): a database of the release before, started by
// this release, keeps the service-wide unique email that the release before's creates rely on, until the
// operator applies the contract migrations; meanwhile this release refuses only what that constraint forbids.
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import type { DatabaseHandle } from "../../server/db/database.ts";
import { migrateToLatest, pendingContractNotice } from "../../server/db/migrate.ts";
import { CONTRACT_MIGRATIONS, MIGRATIONS } from "../../server/db/migrations/index.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { insertUserWithinLimit, isGlobalEmailTaken } from "../../server/portal/db.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { newId } from "../../server/shared/ids.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const A = "upgrade-a.example.com";
const B = "upgrade-b.example.com";
const SHARED = "shared@example.org";
const PREVIOUS_RELEASE = "0010_delivery_receiver_wait";

let handle: DatabaseHandle;
let srv: TestServer;
let a: LogisticsClient;
let b: LogisticsClient;

beforeAll(async () => {
  handle = await createTestDatabase({ empty: true });
  // The schema the release before this one left behind.
  const provider = { getMigrations: async () => MIGRATIONS };
  const { error } = await new Migrator({ db: handle.db, provider }).migrateTo(PREVIOUS_RELEASE);
  if (error) throw new Error("migrating to the release before failed", { cause: error });
  await provisionAccount(handle.db, "merchant", A, `secret-${A}`);
});
afterAll(async () => {
  await srv?.close();
  await handle?.close();
});

const globalEmailKey = async () =>
  (
    await sql<{
      n: number;
    }>`select count(*)::int as n from pg_constraint where conname = 'portal_users_email_key'`.execute(handle.db)
  ).rows[0]!.n;

/** The release before's create of a portal user: INSERT ... ON CONFLICT (email) DO NOTHING. */
const previousReleaseCreate = async (merchantId: string, email: string) =>
  (
    await sql<{ id: string }>`insert into portal_users (id, merchant_id, email, password_hash, role, created_at)
      values (${newId(Date.now())}, ${merchantId}, ${email}, 'hash', 'admin', now())
      on conflict (email) do nothing returning id`.execute(handle.db)
  ).rows.length;

const create = (c: LogisticsClient, email: string) =>
  c.POST("/portal_users/_create", { body: { email, password: "a-long-password", role: "staff" } });

describe("a rolling upgrade over 0011", () => {
  it("this release's start on the release before's database runs the expand migrations only; the release before's creates still work", async () => {
    expect(await previousReleaseCreate(A, SHARED)).toBe(1);
    const outcome = await migrateToLatest(handle.db);
    expect(outcome).toEqual({
      // Every expand migration after the release before's last (0011 first), whatever later releases add.
      applied: Object.keys(MIGRATIONS).slice(Object.keys(MIGRATIONS).indexOf(PREVIOUS_RELEASE) + 1),
      contracted: [],
      // Every contract migration (0011 first), whatever later releases add.
      pendingContract: Object.keys(CONTRACT_MIGRATIONS),
    });
    expect(outcome.pendingContract[0]).toBe("0011_drop_global_portal_email");
    expect(outcome.applied.slice(0, 1)).toEqual(["0011_portal_users_per_merchant"]);
    expect(outcome.applied).toContain("0014_portal_password_reset");
    expect(pendingContractNotice(outcome.pendingContract)).toMatch(
      /^contract migrations pending \(0011_drop_global_portal_email[^)]*\): once every instance runs this release, apply them with `npm run cli -- migrate --contract`$/,
    );
    expect(await globalEmailKey()).toBe(1);
    // An old instance, still running, creates users: its ON CONFLICT (email) finds its arbiter.
    expect(await previousReleaseCreate(A, "old-instance@example.org")).toBe(1);
    expect(await previousReleaseCreate(A, "old-instance@example.org")).toBe(0);
    // A second start changes nothing and still says what waits.
    expect(await migrateToLatest(handle.db)).toEqual({ ...outcome, applied: [] });
  });

  it("before the contract step, this release refuses an email another merchant has with 409 naming only the upgrade step, and stores nothing", async () => {
    srv = await startTestServer({ database: handle });
    a = await srv.merchant(A);
    b = await srv.merchant(B);
    const refused = await expectUnchanged(srv, () => create(b, "Shared@Example.org"));
    const error = expectError(refused, 409, "conflict", ["/body/email"]);
    expect(error.message).toContain("npm run cli -- migrate --contract");
    expect(error.message).not.toMatch(/merchant|upgrade-a/i);
    // Everything else works as on the final schema.
    expect((await create(b, "fresh@example.org")).response.status).toBe(201);
    const taken = expectError(await create(a, SHARED), 409, "conflict", ["/body/email"]);
    expect(taken.message).toBe("Your merchant has a portal user with this email already.");
    // The operator CLI says the same.
    await expect(provisionPortalUser(handle.db, B, SHARED, "a-long-password")).rejects.toThrow(/migrate --contract/);
    // A create racing past the check fails on the constraint, which the create maps to the same 409.
    const row = { id: newId(Date.now()), merchant_id: B, email: SHARED, password_hash: "h", role: "staff" as const };
    const raced = await inTransaction(handle.db, (trx) =>
      insertUserWithinLimit(trx, { ...row, created_at: new Date() }, 100),
    ).catch((err: unknown) => err);
    expect(isGlobalEmailTaken(raced)).toBe(true);
  });

  it("migrate --contract drops the service-wide unique email; then one email serves two merchants", async () => {
    expect(await migrateToLatest(handle.db, { contract: true })).toEqual({
      applied: [],
      contracted: Object.keys(CONTRACT_MIGRATIONS),
      pendingContract: [],
    });
    expect(await globalEmailKey()).toBe(0);
    expect(await migrateToLatest(handle.db)).toEqual({ applied: [], contracted: [], pendingContract: [] });
    const inB = await create(b, "Shared@Example.org");
    expect(inB.response.status).toBe(201);
    expect(inB.data).toMatchObject({ email: SHARED, merchant_id: B });
    // Within one merchant the email stays unique.
    expectError(await create(b, SHARED), 409, "conflict", ["/body/email"]);
  });

  it("an empty database gets the expand and the contract migrations at once: a new install runs no older release", async () => {
    const fresh = await createTestDatabase({ empty: true });
    try {
      const outcome = await migrateToLatest(fresh.db);
      expect(outcome.applied).toEqual(Object.keys(MIGRATIONS));
      expect(outcome.contracted).toEqual(Object.keys(CONTRACT_MIGRATIONS));
      expect(outcome.pendingContract).toEqual([]);
      const key = await sql`select 1 from pg_constraint where conname = 'portal_users_email_key'`.execute(fresh.db);
      expect(key.rows).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
