// Contract test: portal sign-in, session, sign-out and portal users, driven through Prism in proxy mode in
// front of the real server (strict and lenient proxies, as in inbound.contract.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { contractHarness } from "./harness.ts";

/** The statuses each portal operation must have been seen answering through Prism. */
const REQUIRED: Record<string, number[]> = {
  createPortalSession: [201, 300, 400, 401],
  getPortalSession: [200, 401],
  deletePortalSession: [200, 403],
  createPortalUser: [201, 400, 403, 409],
  listPortalUsers: [200, 403],
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
