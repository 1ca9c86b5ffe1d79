// Portal users belong to their merchant: an email is unique within one merchant only, another merchant's
// users are neither visible nor in the way, a create that fails costs no key derivation, and the limit of
// users per merchant holds under concurrent creates. Admins (and the merchant itself) remove users, change
// their roles and reset their passwords; never the last admin away, and a user's sessions end with each change.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createLogisticsClient, type LogisticsClient } from "../../client/index.ts";
import type { Principal } from "../../server/accounts/domain.ts";
import { hashSecret } from "../../server/accounts/secrets.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { FAIR_SHARE } from "../../server/http/fair-share.ts";
import { insertUserWithinLimit } from "../../server/portal/db.ts";
import { newId } from "../../server/shared/ids.ts";
import { deletePortalUser, MAX_USERS_PER_MERCHANT, provisionPortalUser } from "../../server/portal/users.ts";
import { announcement, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";

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

// --- Administration: remove a user, change a role, reset a password, change one's own password.

const PASSWORD = "a-long-password";
let shops = 0;

/** A merchant of its own with an admin and a staff user (and more admins when asked), and its Basic client. */
async function shop(extraAdmins = 0) {
  const merchantId = `users-admin-${++shops}.example.com`;
  const merchant = await srv.merchant(merchantId);
  const admin = `admin@${merchantId}`;
  const staff = `staff@${merchantId}`;
  await provisionPortalUser(srv.handle.db, merchantId, admin, PASSWORD, "admin");
  await provisionPortalUser(srv.handle.db, merchantId, staff, PASSWORD, "staff");
  for (let i = 0; i < extraAdmins; i++)
    await provisionPortalUser(srv.handle.db, merchantId, `admin-${i + 2}@${merchantId}`, PASSWORD, "admin");
  const items = (await merchant.GET("/portal_users")).data!.items;
  const idOf = (email: string) => items.find((u) => u.email === email)!.id;
  return {
    merchantId,
    merchant,
    admin: { email: admin, id: idOf(admin) },
    staff: { email: staff, id: idOf(staff) },
    admins: [admin, ...Array.from({ length: extraAdmins }, (_, i) => `admin-${i + 2}@${merchantId}`)].map(idOf),
  };
}

/** Signs in over the wire: the session, and clients that send its cookie with and without the CSRF token. */
async function session(email: string, password = PASSWORD, server: TestServer = srv) {
  const r = await server.client().POST("/portal_sessions/_create", { body: { email, password } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  const token = /^portal_session=([^;]+);/.exec(r.response.headers.get("set-cookie")!)![1]!;
  const cookie = `portal_session=${token}`;
  return { data: r.data!, cookie, c: cookieClient(cookie, r.data!.csrf_token), noCsrf: cookieClient(cookie) };
}

const cookieClient = (cookie: string, csrf?: string, server: TestServer = srv): LogisticsClient =>
  createLogisticsClient({
    baseUrl: server.baseUrl,
    headers: { Cookie: cookie, ...(csrf !== undefined && { "X-CSRF-Token": csrf }) },
  });

const usersOf = async (merchant: LogisticsClient) => (await merchant.GET("/portal_users")).data!.items;
const signInStatus = async (email: string, password: string) =>
  (await srv.client().POST("/portal_sessions/_create", { body: { email, password } })).response.status;

const removeUser = (c: LogisticsClient, user_id: string) =>
  c.POST("/portal_users/{user_id}/_delete", { params: { path: { user_id } } });
const setRole = (c: LogisticsClient, user_id: string, role: "admin" | "staff") =>
  c.POST("/portal_users/{user_id}", { params: { path: { user_id } }, body: { role } });
const resetPassword = (c: LogisticsClient, user_id: string, password: string) =>
  c.POST("/portal_users/{user_id}/_reset_password", { params: { path: { user_id } }, body: { password } });
const changeOwn = (c: LogisticsClient, current_password: string, new_password: string) =>
  c.POST("/portal_sessions/current/_change_password", { body: { current_password, new_password } });

/** A refused request: its status and code, no stored row changed, and the merchant's users read back the same. */
async function refused(
  merchant: LogisticsClient,
  request: () => Promise<{ response: Response; error?: unknown }>,
  status: number,
  code: string,
  paths: string[] = [],
) {
  const before = await usersOf(merchant);
  const r = await expectUnchanged(srv, request);
  const error = expectError(r, status, code, paths);
  expect(await usersOf(merchant)).toEqual(before);
  return error;
}

describe("removing a portal user", () => {
  it("by an admin: 200, gone from the list, its sessions end at once on every instance and it cannot sign in", async () => {
    const t = await shop();
    const admin = await session(t.admin.email);
    const staff = await session(t.staff.email);
    // A second instance on the same database: sessions are read from the database on every request there too.
    const other = await startTestServer({ database: srv.handle });
    try {
      const elsewhere = cookieClient(staff.cookie, staff.data.csrf_token, other);
      expect((await elsewhere.GET("/portal_sessions/current")).response.status).toBe(200);
      const r = await removeUser(admin.c, t.staff.id);
      expect(r.response.status).toBe(200);
      expect(r.data).toEqual({ success: true, id: t.staff.id });
      expect((await usersOf(t.merchant)).map((u) => u.email)).toEqual([t.admin.email]);
      expectError(await staff.c.GET("/portal_sessions/current"), 401, "unauthorized");
      expectError(await elsewhere.GET("/inbound_shipments"), 401, "unauthorized");
      expect(await signInStatus(t.staff.email, PASSWORD)).toBe(401);
      // Removed already: the same 404 as an id no user has.
      await refused(t.merchant, () => removeUser(admin.c, t.staff.id), 404, "not_found");
      // The admin's own session goes on.
      expect((await admin.c.GET("/portal_sessions/current")).response.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("by the merchant with its API secret (HTTP Basic) as well", async () => {
    const t = await shop();
    const r = await removeUser(t.merchant, t.staff.id);
    expect(r.data).toEqual({ success: true, id: t.staff.id });
    expect((await usersOf(t.merchant)).map((u) => u.id)).toEqual([t.admin.id]);
  });

  it("of yourself is allowed unless you are the last admin: your session ends with it", async () => {
    const t = await shop(1);
    const me = await session(t.admin.email);
    const r = await removeUser(me.c, t.admin.id);
    expect(r.response.status).toBe(200);
    expectError(await me.c.GET("/portal_sessions/current"), 401, "unauthorized");
    // Now the other admin is the last one: removing itself is refused, and it stays signed in.
    const last = await session(`admin-2@${t.merchantId}`);
    const error = await refused(t.merchant, () => removeUser(last.c, t.admins[1]!), 409, "conflict", [
      "/params/user_id",
    ]);
    expect(error.details).toEqual([expect.objectContaining({ path: "/params/user_id", code: "last_admin" })]);
    expect((await last.c.GET("/portal_sessions/current")).response.status).toBe(200);
  });
});

describe("changing a portal user's role", () => {
  it("ends the user's sessions at once (the old cookie is 401); signed in again it has the new role", async () => {
    const t = await shop();
    const admin = await session(t.admin.email);
    const staff = await session(t.staff.email);
    const r = await setRole(admin.c, t.staff.id, "admin");
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ id: t.staff.id, email: t.staff.email, role: "admin", merchant_id: t.merchantId });
    expectError(await staff.c.GET("/portal_sessions/current"), 401, "unauthorized");
    expect((await usersOf(t.merchant)).find((u) => u.id === t.staff.id)!.role).toBe("admin");
    const again = await session(t.staff.email);
    expect(again.data.user.role).toBe("admin");
    // Now an admin, it manages users; the same role again changes nothing and ends no session.
    expect((await again.c.GET("/portal_users")).response.status).toBe(200);
    const same = await expectUnchanged(srv, () => setRole(t.merchant, t.staff.id, "admin"));
    expect(same.data?.role).toBe("admin");
    expect((await again.c.GET("/portal_sessions/current")).response.status).toBe(200);
    // And back to staff, by the merchant itself: the admin's session there ends too.
    expect((await setRole(t.merchant, t.staff.id, "staff")).data?.role).toBe("staff");
    expectError(await again.c.GET("/portal_sessions/current"), 401, "unauthorized");
  });

  it("never makes the last admin staff: 409 conflict naming /body/role; with another admin it may demote itself", async () => {
    const t = await shop();
    const admin = await session(t.admin.email);
    for (const c of [t.merchant, admin.c]) {
      const error = await refused(t.merchant, () => setRole(c, t.admin.id, "staff"), 409, "conflict", ["/body/role"]);
      expect(error.details).toEqual([expect.objectContaining({ path: "/body/role", code: "last_admin" })]);
      await refused(t.merchant, () => removeUser(c, t.admin.id), 409, "conflict", ["/params/user_id"]);
    }
    expect((await admin.c.GET("/portal_sessions/current")).response.status).toBe(200);
    expect((await setRole(admin.c, t.staff.id, "admin")).data?.role).toBe("admin");
    expect((await setRole(admin.c, t.admin.id, "staff")).data?.role).toBe("staff");
    expectError(await admin.c.GET("/portal_sessions/current"), 401, "unauthorized");
    expect((await usersOf(t.merchant)).map((u) => [u.email, u.role])).toEqual([
      [t.admin.email, "staff"],
      [t.staff.email, "admin"],
    ]);
  });
});

describe("the last admin under concurrency", () => {
  const adminsOf = async (merchantId: string) =>
    (
      await srv.handle.db
        .selectFrom("portal_users")
        .select("id")
        .where("merchant_id", "=", merchantId)
        .where("role", "=", "admin")
        .execute()
    ).length;

  it("two requests at once taking away each one of the last two admins: one succeeds, the other is 409", async () => {
    for (const [first, second] of [
      ["remove", "remove"],
      ["remove", "demote"],
      ["demote", "demote"],
    ] as const) {
      const t = await shop(1);
      const act = (how: "remove" | "demote", id: string) =>
        how === "remove" ? removeUser(t.merchant, id) : setRole(t.merchant, id, "staff");
      const results = await Promise.all([act(first, t.admins[0]!), act(second, t.admins[1]!)]);
      expect(results.map((r) => r.response.status).sort(), `${first} and ${second}`).toEqual([200, 409]);
      for (const r of results.filter((x) => x.response.status === 409)) expectError(r, 409, "conflict");
      expect(await adminsOf(t.merchantId)).toBe(1);
    }
  });

  it("a removal waits for the admins another one has locked, then sees that it would remove the last", async () => {
    // Each in its own transaction, the first held open: without the lock on the admin rows, the second would
    // count two admins (the first removal is not committed yet) and remove the last one.
    const t = await shop(1);
    const principal: Principal = { role: "merchant", id: t.merchantId, name: `M-${t.merchantId}` };
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstDone!: () => void;
    const removedFirst = new Promise<void>((r) => (firstDone = r));
    const first = inTransaction(srv.handle.db, async (trx) => {
      await deletePortalUser(trx, principal, t.admins[0]!);
      firstDone();
      await held;
    });
    await removedFirst;
    let settled = false;
    const second = inTransaction(srv.handle.db, (trx) => deletePortalUser(trx, principal, t.admins[1]!)).finally(
      () => (settled = true),
    );
    second.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(settled, "the second removal waits for the first transaction").toBe(false);
    release();
    await first;
    await expect(second).rejects.toMatchObject({ code: "conflict" });
    expect(await adminsOf(t.merchantId)).toBe(1);
  });
});

describe("administering portal users refuses", () => {
  it("bad input with its exact status and code, and nothing stored changes", async () => {
    const t = await shop();
    const theirs = await shop();
    const admin = await session(t.admin.email);
    const unknown = newId();
    for (const c of [t.merchant, admin.c]) {
      for (const id of [unknown, theirs.staff.id, theirs.admin.id]) {
        await refused(t.merchant, () => removeUser(c, id), 404, "not_found");
        await refused(t.merchant, () => setRole(c, id, "admin"), 404, "not_found");
        await refused(t.merchant, () => resetPassword(c, id, "temporary-password"), 404, "not_found");
      }
      for (const id of ["not-an-id", t.staff.id.toUpperCase(), `${t.staff.id}0`]) {
        await refused(t.merchant, () => removeUser(c, id), 400, "validation_failed", ["/params/user_id"]);
        await refused(t.merchant, () => setRole(c, id, "admin"), 400, "validation_failed", ["/params/user_id"]);
        await refused(t.merchant, () => resetPassword(c, id, "temporary-password"), 400, "validation_failed", [
          "/params/user_id",
        ]);
      }
      const path = { params: { path: { user_id: t.staff.id } } };
      for (const [body, at] of [
        [{ role: "owner" }, "/body/role"],
        [{}, "/body/role"],
        [{ role: "admin", email: "someone@example.org" }, "/body/email"],
      ] as const)
        await refused(
          t.merchant,
          () => c.POST("/portal_users/{user_id}", { ...path, body: body as never }),
          400,
          "validation_failed",
          [at],
        );
      for (const [body, at] of [
        [{ password: "short" }, "/body/password"],
        [{ password: "x".repeat(257) }, "/body/password"],
        [{}, "/body/password"],
        [{ password: "temporary-password", must_change_password: false }, "/body/must_change_password"],
      ] as const)
        await refused(
          t.merchant,
          () => c.POST("/portal_users/{user_id}/_reset_password", { ...path, body: body as never }),
          400,
          "validation_failed",
          [at],
        );
      await refused(
        t.merchant,
        () => c.POST("/portal_users/{user_id}/_delete", { ...path, body: { now: true } as never }),
        400,
        "validation_failed",
      );
    }
    // The other merchant's users are as they were.
    expect((await usersOf(theirs.merchant)).map((u) => u.role)).toEqual(["admin", "staff"]);
  });

  it("a staff session: 403 access_denied on each, and nothing changes", async () => {
    const t = await shop();
    const staff = await session(t.staff.email);
    for (const id of [t.admin.id, t.staff.id]) {
      await refused(t.merchant, () => removeUser(staff.c, id), 403, "access_denied");
      await refused(t.merchant, () => setRole(staff.c, id, "admin"), 403, "access_denied");
      await refused(t.merchant, () => resetPassword(staff.c, id, "temporary-password"), 403, "access_denied");
    }
  });

  it("a write with the session cookie but no X-CSRF-Token: 403 access_denied, and nothing changes", async () => {
    const t = await shop();
    const admin = await session(t.admin.email);
    for (const request of [
      () => removeUser(admin.noCsrf, t.staff.id),
      () => setRole(admin.noCsrf, t.staff.id, "admin"),
      () => resetPassword(admin.noCsrf, t.staff.id, "temporary-password"),
      () => changeOwn(admin.noCsrf, PASSWORD, "another-long-password"),
    ]) {
      const error = await refused(t.merchant, request, 403, "access_denied");
      expect(error.message).toMatch(/X-CSRF-Token/);
    }
    expect(await signInStatus(t.admin.email, PASSWORD)).toBe(201);
  });
});

describe("resetting a portal user's password", () => {
  it("ends its sessions; the temporary password signs in with must_change_password, and little else works until it is changed", async () => {
    const t = await shop();
    const admin = await session(t.admin.email);
    const before = await session(t.staff.email);
    expect(before.data.must_change_password).toBe(false);
    const r = await resetPassword(admin.c, t.staff.id, "temporary-password-1");
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ id: t.staff.id, email: t.staff.email, role: "staff" });
    expectError(await before.c.GET("/portal_sessions/current"), 401, "unauthorized");
    expect(await signInStatus(t.staff.email, PASSWORD)).toBe(401);

    const temp = await session(t.staff.email, "temporary-password-1");
    expect(temp.data.must_change_password).toBe(true);
    const current = await temp.c.GET("/portal_sessions/current");
    expect(current.data).toMatchObject({ must_change_password: true, user: { id: t.staff.id } });
    // Every other operation: 403 with a detail that says why, and nothing changes.
    for (const request of [
      () => temp.c.GET("/inbound_shipments"),
      () => temp.c.POST("/inbound_shipments/_create", { body: announcement() }),
      () => temp.c.GET("/portal_users"),
      () => temp.c.GET("/merchant/shipping_settings"),
    ]) {
      const error = await refused(t.merchant, request, 403, "access_denied");
      expect(error.details).toEqual([expect.objectContaining({ code: "must_change_password" })]);
      expect(error.message).toMatch(/change it first/);
    }
    // Signing out is allowed: a second session of the temporary password signs out.
    const second = await session(t.staff.email, "temporary-password-1");
    const third = await session(t.staff.email, "temporary-password-1");
    expect((await second.c.POST("/portal_sessions/current/_delete")).data).toEqual({ success: true });

    // Refusals of the change itself, each changing nothing.
    const wrong = await refused(
      t.merchant,
      () => changeOwn(temp.c, "not-the-password", "my-own-new-password"),
      400,
      "validation_failed",
      ["/body/current_password"],
    );
    expect(wrong.details).toEqual([expect.objectContaining({ code: "wrong_password" })]);
    const same = await refused(
      t.merchant,
      () => changeOwn(temp.c, "temporary-password-1", "temporary-password-1"),
      400,
      "validation_failed",
      ["/body/new_password"],
    );
    expect(same.details).toEqual([expect.objectContaining({ code: "unchanged" })]);
    // A value rule of the registry, run with the schema check: one 400 names the unknown field beside it.
    const both = await refused(
      t.merchant,
      () =>
        temp.c.POST("/portal_sessions/current/_change_password", {
          body: {
            current_password: "temporary-password-1",
            new_password: "temporary-password-1",
            remember: 1,
          } as never,
        }),
      400,
      "validation_failed",
      ["/body/new_password", "/body/remember"],
    );
    expect(both.details.map((d) => d.code).sort()).toEqual(["additionalProperties", "unchanged"]);
    await refused(t.merchant, () => changeOwn(temp.c, "temporary-password-1", "short"), 400, "validation_failed", [
      "/body/new_password",
    ]);
    await refused(
      t.merchant,
      () =>
        temp.c.POST("/portal_sessions/current/_change_password", {
          body: {
            current_password: "temporary-password-1",
            new_password: "my-own-new-password",
            role: "admin",
          } as never,
        }),
      400,
      "validation_failed",
      ["/body/role"],
    );
    await refused(
      t.merchant,
      () =>
        temp.c.POST("/portal_sessions/current/_change_password", {
          body: { new_password: "my-own-new-password" } as never,
        }),
      400,
      "validation_failed",
      ["/body/current_password"],
    );

    // The change: this session goes on without the flag, the user's other sessions end.
    const changed = await changeOwn(temp.c, "temporary-password-1", "my-own-new-password");
    expect(changed.response.status).toBe(200);
    expect(changed.data).toMatchObject({
      must_change_password: false,
      csrf_token: temp.data.csrf_token,
      user: { id: t.staff.id, role: "staff" },
    });
    expect((await temp.c.GET("/inbound_shipments")).response.status).toBe(200);
    expect((await temp.c.GET("/portal_sessions/current")).data?.must_change_password).toBe(false);
    expectError(await third.c.GET("/portal_sessions/current"), 401, "unauthorized");
    expect(await signInStatus(t.staff.email, "temporary-password-1")).toBe(401);
    expect((await session(t.staff.email, "my-own-new-password")).data.must_change_password).toBe(false);
  });

  it("by the merchant (Basic) of an admin, itself included: the admin too must change it", async () => {
    const t = await shop();
    const admin = await session(t.admin.email);
    expect((await resetPassword(t.merchant, t.admin.id, "temporary-password-2")).response.status).toBe(200);
    expectError(await admin.c.GET("/portal_users"), 401, "unauthorized");
    const temp = await session(t.admin.email, "temporary-password-2");
    expect(temp.data.must_change_password).toBe(true);
    await refused(t.merchant, () => removeUser(temp.c, t.staff.id), 403, "access_denied");
    await refused(t.merchant, () => resetPassword(temp.c, t.staff.id, "temporary-password-3"), 403, "access_denied");
    expect((await changeOwn(temp.c, "temporary-password-2", "the-admins-new-password")).response.status).toBe(200);
    expect((await temp.c.GET("/portal_users")).response.status).toBe(200);
  });
});

describe("changing one's own password", () => {
  it("needs no reset; the user's other sessions end, this one goes on", async () => {
    const t = await shop();
    const one = await session(t.staff.email);
    const two = await session(t.staff.email);
    const r = await changeOwn(one.c, PASSWORD, "a-brand-new-password");
    expect(r.data).toMatchObject({ must_change_password: false, user: { id: t.staff.id } });
    expect(r.response.headers.get("cache-control")).toBe("no-store");
    expect((await one.c.GET("/inbound_shipments")).response.status).toBe(200);
    expectError(await two.c.GET("/portal_sessions/current"), 401, "unauthorized");
    expect(await signInStatus(t.staff.email, PASSWORD)).toBe(401);
    expect(await signInStatus(t.staff.email, "a-brand-new-password")).toBe(201);
  });

  it("counts a wrong current password as a failed sign-in: after the limit, 429 and nothing changes", async () => {
    const t = await shop();
    const s = await session(t.staff.email);
    for (let i = 0; i < 10; i++)
      await refused(
        t.merchant,
        () => changeOwn(s.c, `wrong-password-${i}`, "a-brand-new-password"),
        400,
        "validation_failed",
        ["/body/current_password"],
      );
    const r = await refused(t.merchant, () => changeOwn(s.c, PASSWORD, "a-brand-new-password"), 429, "rate_limited");
    expect(r.message).toMatch(/Too many failed sign-ins/);
  });
});
