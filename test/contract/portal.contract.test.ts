// Contract test: portal sign-in, session, sign-out and portal users, driven through Prism in proxy mode in
// front of the real server (strict and lenient proxies, as in inbound.contract.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { newId } from "../../server/shared/ids.ts";
import { contractHarness } from "./harness.ts";

/** The statuses each portal operation must have been seen answering through Prism. */
const REQUIRED: Record<string, number[]> = {
  createPortalSession: [201, 300, 400, 401],
  getPortalSession: [200, 401],
  deletePortalSession: [200, 403],
  changePortalPassword: [200, 400, 403],
  createPortalUser: [201, 400, 403, 409],
  listPortalUsers: [200, 403],
  updatePortalUser: [200, 400, 403, 404, 409],
  deletePortalUser: [200, 404, 409],
  resetPortalUserPassword: [200, 400, 404],
};

const h = contractHarness(["/portal_"]);
const { conforms, fails, refusedByPrism, account } = h;
beforeAll(() => h.start());
afterAll(() => h.stop());

async function signIn(email: string, password: string) {
  const r = conforms(await h.client("strict").POST("/portal_sessions/_create", { body: { email, password } }), 201);
  const token = /^portal_session=([^;]+);/.exec(r.response.headers.get("set-cookie") ?? "")?.[1];
  expect(token, "the session cookie comes through the proxy").toBeDefined();
  const headers = { Cookie: `portal_session=${token}`, "X-CSRF-Token": r.data!.csrf_token };
  return {
    data: r.data!,
    strict: h.withHeaders("strict", headers),
    lenient: h.withHeaders("lenient", headers),
    noCsrf: h.withHeaders("strict", { Cookie: headers.Cookie }),
  };
}

describe("portal operations conform to spec/openapi.yaml through Prism", () => {
  it("sign in (201, 400, 401), read the session (200, 401), sign out (200; 403 without the CSRF token)", async () => {
    const m = await account("merchant");
    const merchantId = m.username.slice(2);
    await provisionPortalUser(h.server().handle.db, merchantId, `anna@${merchantId}`, "anna-password", "admin");
    refusedByPrism(
      await h.client("strict").POST("/portal_sessions/_create", { body: { email: `anna@${merchantId}` } as never }),
      422,
      "password",
    );
    fails(
      await h.client("lenient").POST("/portal_sessions/_create", { body: { email: `anna@${merchantId}` } as never }),
      { status: 400, requestViolations: ["required"] },
      "validation_failed",
      ["/body/password"],
    );
    fails(
      await h
        .client("strict")
        .POST("/portal_sessions/_create", { body: { email: `anna@${merchantId}`, password: "wrong-password" } }),
      401,
      "unauthorized",
    );

    const s = await signIn(`anna@${merchantId}`, "anna-password");
    expect(s.data.user).toMatchObject({ email: `anna@${merchantId}`, role: "admin", merchant_id: merchantId });
    expect(conforms(await s.strict.GET("/portal_sessions/current"), 200).data!.user.email).toBe(`anna@${merchantId}`);
    // A merchant's own operation works with the cookie as with Basic.
    conforms(await s.strict.GET("/inbound_shipments"), 200);
    fails(await s.noCsrf.POST("/portal_sessions/current/_delete"), 403, "access_denied");
    conforms(await s.strict.POST("/portal_sessions/current/_delete"), 200);
    fails(await s.lenient.GET("/portal_sessions/current"), 401, "unauthorized");
  });

  it("sign in as a person of two merchants: 300 lists them, merchant_id picks one (201)", async () => {
    const ids = [(await account("merchant")).username.slice(2), (await account("merchant")).username.slice(2)];
    for (const id of ids) await provisionPortalUser(h.server().handle.db, id, "pat@example.org", "pats-password");
    const choice = conforms(
      await h.client("strict").POST("/portal_sessions/_create", {
        body: { email: "pat@example.org", password: "pats-password" },
      }),
      300,
    );
    expect(choice.error).toMatchObject({
      code: "merchant_choice_required",
      merchants: ids.sort().map((merchant_id) => ({ merchant_id })),
    });
    const picked = conforms(
      await h.client("strict").POST("/portal_sessions/_create", {
        body: { email: "pat@example.org", password: "pats-password", merchant_id: ids[1] },
      }),
      201,
    );
    expect(picked.data!.user.merchant_id).toBe(ids[1]);
  });

  it("administering users: role (200, 400, 403, 404, 409), remove (200, 404, 409), reset (200, 400, 404), own password (200, 400, 403)", async () => {
    const m = await account("merchant");
    const merchantId = m.username.slice(2);
    const db = h.server().handle.db;
    await provisionPortalUser(db, merchantId, `boss@${merchantId}`, "boss-password", "admin");
    await provisionPortalUser(db, merchantId, `clerk@${merchantId}`, "clerk-password", "staff");
    const users = conforms(await m.strict.GET("/portal_users"), 200).data!.items;
    const boss = users.find((u) => u.role === "admin")!.id;
    const clerk = users.find((u) => u.role === "staff")!.id;
    const at = (user_id: string) => ({ params: { path: { user_id } } });
    const admin = await signIn(`boss@${merchantId}`, "boss-password");

    // Role.
    const promoted = conforms(
      await admin.strict.POST("/portal_users/{user_id}", { ...at(clerk), body: { role: "admin" } }),
      200,
    );
    expect(promoted.data!.role).toBe("admin");
    fails(
      await admin.lenient.POST("/portal_users/{user_id}", { ...at(clerk), body: { role: "owner" } as never }),
      { status: 400, requestViolations: ["enum"] },
      "validation_failed",
      ["/body/role"],
    );
    fails(
      await admin.strict.POST("/portal_users/{user_id}", { ...at(newId()), body: { role: "staff" } }),
      404,
      "not_found",
    );
    conforms(await m.strict.POST("/portal_users/{user_id}", { ...at(clerk), body: { role: "staff" } }), 200);
    fails(await m.strict.POST("/portal_users/{user_id}", { ...at(boss), body: { role: "staff" } }), 409, "conflict", [
      "/body/role",
    ]);
    const staff = await signIn(`clerk@${merchantId}`, "clerk-password");
    fails(
      await staff.strict.POST("/portal_users/{user_id}", { ...at(boss), body: { role: "staff" } }),
      403,
      "access_denied",
    );

    // A reset, and the user's own new password.
    conforms(
      await admin.strict.POST("/portal_users/{user_id}/_reset_password", {
        ...at(clerk),
        body: { password: "temporary-password" },
      }),
      200,
    );
    fails(await staff.lenient.GET("/portal_sessions/current"), 401, "unauthorized");
    fails(
      await admin.lenient.POST("/portal_users/{user_id}/_reset_password", {
        ...at(clerk),
        body: { password: "short" },
      }),
      { status: 400, requestViolations: ["minLength"] },
      "validation_failed",
      ["/body/password"],
    );
    fails(
      await admin.strict.POST("/portal_users/{user_id}/_reset_password", {
        ...at(newId()),
        body: { password: "temporary-password" },
      }),
      404,
      "not_found",
    );
    const temp = await signIn(`clerk@${merchantId}`, "temporary-password");
    expect(temp.data.must_change_password).toBe(true);
    fails(await temp.strict.GET("/portal_users"), 403, "access_denied");
    const change = { current_password: "temporary-password", new_password: "clerks-own-password" };
    fails(
      await temp.strict.POST("/portal_sessions/current/_change_password", {
        body: { ...change, current_password: "wrong-password" },
      }),
      400,
      "validation_failed",
      ["/body/current_password"],
    );
    fails(await temp.noCsrf.POST("/portal_sessions/current/_change_password", { body: change }), 403, "access_denied");
    const changed = conforms(
      await temp.strict.POST("/portal_sessions/current/_change_password", { body: change }),
      200,
    );
    expect(changed.data!.must_change_password).toBe(false);

    // Removal.
    fails(await admin.strict.POST("/portal_users/{user_id}/_delete", at(boss)), 409, "conflict", ["/params/user_id"]);
    expect(conforms(await admin.strict.POST("/portal_users/{user_id}/_delete", at(clerk)), 200).data).toEqual({
      success: true,
      id: clerk,
    });
    fails(await admin.strict.POST("/portal_users/{user_id}/_delete", at(clerk)), 404, "not_found");
    fails(await temp.lenient.GET("/portal_sessions/current"), 401, "unauthorized");
  });

  it("portal users: created by the merchant (201) and admins; 400 short password; 403 staff; 409 taken email", async () => {
    const m = await account("merchant");
    const merchantId = m.username.slice(2);
    const made = conforms(
      await m.strict.POST("/portal_users/_create", {
        body: { email: `staff@${merchantId}`, password: "staff-password", role: "staff" },
      }),
      201,
    );
    expect(made.data).toMatchObject({ email: `staff@${merchantId}`, role: "staff" });
    refusedByPrism(
      await m.strict.POST("/portal_users/_create", {
        body: { email: `x@${merchantId}`, password: "short", role: "staff" },
      }),
      422,
      "password",
    );
    fails(
      await m.lenient.POST("/portal_users/_create", {
        body: { email: `x@${merchantId}`, password: "short", role: "staff" },
      }),
      { status: 400, requestViolations: ["minLength"] },
      "validation_failed",
      ["/body/password"],
    );
    fails(
      await m.strict.POST("/portal_users/_create", {
        body: { email: `staff@${merchantId}`, password: "staff-password", role: "staff" },
      }),
      409,
      "conflict",
    );
    expect(conforms(await m.strict.GET("/portal_users"), 200).data!.items.map((u) => u.email)).toEqual([
      `staff@${merchantId}`,
    ]);

    const staff = await signIn(`staff@${merchantId}`, "staff-password");
    fails(await staff.strict.GET("/portal_users"), 403, "access_denied");
    fails(
      await staff.strict.POST("/portal_users/_create", {
        body: { email: `y@${merchantId}`, password: "y-password-1", role: "admin" },
      }),
      403,
      "access_denied",
    );

    h.expectComplete(REQUIRED);
  });
});
