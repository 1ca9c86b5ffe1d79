// Portal users belong to their merchant: an email is unique within one merchant only, another merchant's
// users are neither visible nor in the way, a create that fails costs no key derivation, and the limit of
// users per merchant holds under concurrent creates.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { hashSecret } from "../../server/accounts/secrets.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { FAIR_SHARE } from "../../server/http/fair-share.ts";
import { insertUserWithinLimit } from "../../server/portal/db.ts";
import { newId } from "../../server/shared/ids.ts";
import { MAX_USERS_PER_MERCHANT, provisionPortalUser } from "../../server/portal/users.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
let a: LogisticsClient;
let b: LogisticsClient;
const A = "users-a.example.com";
const B = "users-b.example.com";

useTestServer(
  async (s) => {
    srv = s;
    a = await s.merchant(A);
    b = await s.merchant(B);
  },
  { concurrentRequestsPerCaller: 100 },
);

const create = (c: LogisticsClient, email: string, role: "admin" | "staff" = "staff") =>
  c.POST("/portal_users/_create", { body: { email, password: "a-long-password", role } });

const roleOf = async (merchantId: string, email: string) =>
  (
    await srv.handle.db
      .selectFrom("portal_users")
      .select("role")
      .where("merchant_id", "=", merchantId)
      .where("email", "=", email)
      .executeTakeFirstOrThrow()
  ).role;

describe("a portal user's email", () => {
  it("may belong to users of several merchants; creating one another merchant has is an ordinary 201", async () => {
    const inA = await create(a, "shared@example.org", "admin");
    expect(inA.response.status).toBe(201);
    // The same answer as for an address no one has: nothing says that merchant A has this user.
    const inB = await create(b, "Shared@Example.org");
    const fresh = await create(b, "fresh@example.org");
    expect(inB.response.status).toBe(201);
    expect(Object.keys(inB.data!).sort()).toEqual(Object.keys(fresh.data!).sort());
    expect(inB.data).toMatchObject({ email: "shared@example.org", role: "staff", merchant_id: B });
    expect(inB.data!.id).not.toBe(inA.data!.id);
    // Each merchant sees its own user only.
    expect((await a.GET("/portal_users")).data!.items.map((u) => [u.merchant_id, u.role])).toEqual([[A, "admin"]]);
    expect((await b.GET("/portal_users")).data!.items.map((u) => u.email)).toEqual([
      "shared@example.org",
      "fresh@example.org",
    ]);
  });

  it("is unique within one merchant: 409 conflict naming the email, whatever its case, and nothing stored", async () => {
    await create(a, "twice@example.org");
    for (const email of ["twice@example.org", "TWICE@example.org", " twice@Example.ORG"]) {
      const r = await expectUnchanged(srv, () => create(a, email.trim(), "admin"));
      expect(expectError(r, 409, "conflict", ["/body/email"]).message).toBe(
        "Your merchant has a portal user with this email already.",
      );
    }
  });

  it("taken within the merchant is refused without deriving a key: it answers ahead of a queue of derivations", async () => {
    await create(a, "queued-taken@example.org");
    await a.GET("/portal_users"); // the merchant's own Basic credentials verified and cached beforehand
    // Alone on the server (no other caller active lately), so that the fair share does not queue the merchant's
    // own requests one behind another: what is measured is the derivation queue only.
    await new Promise((r) => setTimeout(r, FAIR_SHARE.activeMs + 100));
    // Creates of new users each derive a key; the derivations run two at a time, so these queue up.
    const answered: number[] = [];
    const fresh = Array.from({ length: 12 }, (_, i) =>
      create(a, `queued-${i}@example.org`).then((r) => {
        if (r.response.status === 201) answered.push(i);
        return r;
      }),
    );
    const taken = await create(a, "queued-taken@example.org");
    const createdBefore = answered.length;
    await Promise.all(fresh);
    expectError(taken, 409, "conflict", ["/body/email"]);
    // Had the refused create derived a key, it would have waited behind the queued ones.
    expect(createdBefore).toBeLessThanOrEqual(6);
    expect(answered.length).toBeGreaterThan(createdBefore);
  });
});

describe("the limit of portal users per merchant", () => {
  /** Brings a merchant to `n` users directly in the database (the setup, not what is under test). */
  async function fill(merchantId: string, n: number) {
    const hash = await hashSecret("a-long-password");
    const now = Date.now();
    await srv.handle.db
      .insertInto("portal_users")
      .values(
        Array.from({ length: n }, (_, i) => ({
          id: newId(now + i),
          merchant_id: merchantId,
          email: `filled-${i}@${merchantId}`,
          password_hash: hash,
          role: "staff" as const,
          created_at: new Date(now),
        })),
      )
      .execute();
  }
  const count = async (merchantId: string) =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from portal_users where merchant_id = ${merchantId}`.execute(
          srv.handle.db,
        )
      ).rows[0]!.n,
    );

  it("holds under concurrency: 20 creates at the same time for a merchant with 95 users end at exactly 100", async () => {
    const merchantId = "users-limit.example.com";
    const c = await srv.merchant(merchantId);
    await fill(merchantId, MAX_USERS_PER_MERCHANT - 5);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create(c, `racer-${i}@example.org`)));
    const statuses = results.map((r) => r.response.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    for (const r of results.filter((r) => r.response.status !== 201))
      expect(expectError(r, 409, "conflict").message).toBe("A merchant may have at most 100 portal users.");
    expect(await count(merchantId)).toBe(MAX_USERS_PER_MERCHANT);
  });

  it("holds at the insert itself when creates reach it at the same moment (each in its own transaction)", async () => {
    // Over HTTP the derivation queue staggers the inserts; here they start together, as on a busy server.
    const merchantId = "users-race.example.com";
    await srv.merchant(merchantId);
    await fill(merchantId, MAX_USERS_PER_MERCHANT - 5);
    const now = new Date();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        inTransaction(srv.handle.db, (trx) =>
          insertUserWithinLimit(
            trx,
            {
              id: newId(now.getTime() + 1000 + i),
              merchant_id: merchantId,
              email: `race-${i}@example.org`,
              password_hash: "scrypt$not-a-real-hash",
              role: "staff",
              created_at: now,
            },
            MAX_USERS_PER_MERCHANT,
          ),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "inserted")).toHaveLength(5);
    expect(outcomes.filter((o) => o === "full")).toHaveLength(15);
    expect(await count(merchantId)).toBe(MAX_USERS_PER_MERCHANT);
  });

  it("is the merchant's own: a full merchant refuses with 409 and nothing stored; another merchant still creates", async () => {
    const merchantId = "users-full.example.com";
    const c = await srv.merchant(merchantId);
    await fill(merchantId, MAX_USERS_PER_MERCHANT);
    expectError(await expectUnchanged(srv, () => create(c, "one-more@example.org")), 409, "conflict");
    await expect(
      provisionPortalUser(srv.handle.db, merchantId, "one-more@example.org", "a-long-password"),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await count(merchantId)).toBe(MAX_USERS_PER_MERCHANT);
    expect((await create(b, "one-more@example.org")).response.status).toBe(201);
  });
});

describe("the operator's provisioning (CLI portal-user create)", () => {
  it("creates an admin unless told otherwise, and may add an address another merchant has", async () => {
    const made = await provisionPortalUser(srv.handle.db, B, "cli-new@example.org", "a-long-password");
    expect(made).toMatchObject({ created: true, role: "admin" });
    await provisionPortalUser(srv.handle.db, A, "cli-new@example.org", "a-long-password", "staff");
    expect(await roleOf(A, "cli-new@example.org")).toBe("staff");
    expect(await roleOf(B, "cli-new@example.org")).toBe("admin");
  });

  it("a password reset keeps the role unless one is given", async () => {
    await provisionPortalUser(srv.handle.db, A, "cli-staff@example.org", "a-long-password", "staff");
    const reset = await provisionPortalUser(srv.handle.db, A, "cli-staff@example.org", "a-new-password");
    expect(reset).toMatchObject({ created: false, role: "staff" });
    expect(await roleOf(A, "cli-staff@example.org")).toBe("staff");
    await provisionPortalUser(srv.handle.db, A, "cli-staff@example.org", "a-third-password", "admin");
    expect(await roleOf(A, "cli-staff@example.org")).toBe("admin");
  });
});
