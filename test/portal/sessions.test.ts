// Portal sign-in for people: the session cookie, its CSRF defence on writes, sign-out, expiry, the shared
// failed-login throttle, and portal users managed by the merchant and its portal admins.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createLogisticsClient, type LogisticsClient } from "../../client/index.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { announcement, createShipment, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
let m: LogisticsClient;
let other: LogisticsClient;
const MERCHANT = "portal-shop.example.com";
const ADMIN = { email: "Anna@Portal-Shop.example.com", password: "anna-password-1" };
const STAFF = { email: "bob@portal-shop.example.com", password: "bob-password-12" };

useTestServer(
  async (s) => {
    srv = s;
    m = await s.merchant(MERCHANT);
    other = await s.merchant("portal-other.example.com");
    await provisionPortalUser(s.handle.db, MERCHANT, ADMIN.email, ADMIN.password, "admin");
    await provisionPortalUser(s.handle.db, MERCHANT, STAFF.email, STAFF.password, "staff");
  },
  { loginLimits: { perAddress: 0, perAccount: 5, windowMs: 60_000 } },
);

/** Signs in over the wire; the cookie and CSRF token as a browser would keep them. */
async function signIn(who = ADMIN) {
  const r = await srv.client().POST("/portal_sessions/_create", { body: who });
  expect(r.response.status).toBe(201);
  const setCookie = r.response.headers.get("set-cookie")!;
  const token = /^portal_session=([^;]+);/.exec(setCookie)![1]!;
  return { setCookie, cookie: `portal_session=${token}`, csrf: r.data!.csrf_token, session: r.data! };
}

/** A client that authenticates with the cookie (and, unless told otherwise, sends the CSRF token). */
const cookieClient = (cookie: string, csrf?: string): LogisticsClient =>
  createLogisticsClient({
    baseUrl: srv.baseUrl,
    headers: { Cookie: cookie, ...(csrf !== undefined && { "X-CSRF-Token": csrf }) },
  });

describe("signing in", () => {
  it("sets an HttpOnly, SameSite=Strict cookie for the API's path and returns the user and a CSRF token", async () => {
    const { setCookie, session } = await signIn();
    expect(setCookie).toMatch(
      /^portal_session=[A-Za-z0-9_-]{43}; Path=\/2015-01-01; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    expect(session.user).toMatchObject({ email: "anna@portal-shop.example.com", role: "admin", merchant_id: MERCHANT });
    expect(session.csrf_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(session.expires_at) - Date.now()).toBeGreaterThan(11.9 * 3600_000);
  });

  it("refuses a wrong password and an unknown email alike, with no Basic challenge for the portal", async () => {
    for (const body of [
      { ...ADMIN, password: "wrong-password" },
      { email: "nobody@portal-shop.example.com", password: ADMIN.password },
    ]) {
      const r = await expectUnchanged(srv, () =>
        srv.client(undefined, undefined).POST("/portal_sessions/_create", { body, headers: { "X-CSRF-Token": "-" } }),
      );
      expect(expectError(r, 401, "unauthorized").message).toBe("Wrong email or password.");
      expect(r.response.headers.get("www-authenticate")).toBe('Session realm="logistics-portal"');
      expect(r.response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("refuses bad input with 400 naming the field", async () => {
    const bad: [unknown, string][] = [
      [{ email: ADMIN.email }, "/body/password"],
      [{ email: "not-an-email", password: "x" }, "/body/email"],
      [{ ...ADMIN, remember: true }, "/body/remember"],
      [{ email: ADMIN.email, password: "" }, "/body/password"],
    ];
    for (const [body, path] of bad) {
      const r = await expectUnchanged(srv, () =>
        srv.client().POST("/portal_sessions/_create", { body: body as never }),
      );
      expectError(r, 400, "validation_failed", [path]);
    }
  });

  it("shares the failed-login throttle: after the limit even the right password gets 429", async () => {
    const victim = { email: "carol@portal-shop.example.com", password: "carol-password" };
    await provisionPortalUser(srv.handle.db, MERCHANT, victim.email, victim.password, "staff");
    for (let i = 0; i < 5; i++)
      expect(
        (await srv.client().POST("/portal_sessions/_create", { body: { ...victim, password: `wrong-${i}` } })).response
          .status,
      ).toBe(401);
    const r = await srv.client().POST("/portal_sessions/_create", { body: victim });
    expectError(r, 429, "rate_limited");
    expect(Number(r.response.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("the session cookie", () => {
  it("reads the merchant's data, and another merchant's shipment is 404", async () => {
    const mine = await createShipment(m, announcement({ merchants_ref: "PORTAL-1" }));
    const theirs = await createShipment(other, announcement({ merchants_ref: "PORTAL-OTHER" }));
    const { cookie } = await signIn(STAFF);
    const c = cookieClient(cookie);
    const got = await c.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: mine } } });
    expect(got.data?.merchants_ref).toBe("PORTAL-1");
    const list = await c.GET("/inbound_shipments", { params: { query: { merchants_ref: "PORTAL-OTHER" } } });
    expect(list.data?.items).toEqual([]);
    expectError(
      await c.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: theirs } } }),
      404,
      "not_found",
    );
    const me = await c.GET("/portal_sessions/current");
    expect(me.data?.user.email).toBe(STAFF.email);
    expect(me.response.headers.get("cache-control")).toBe("no-store");
  });

  it("needs the CSRF token on every write: missing or wrong is 403 and nothing changes", async () => {
    const { cookie, csrf } = await signIn();
    for (const header of [undefined, "x".repeat(32), csrf.slice(1)]) {
      const r = await expectUnchanged(srv, () =>
        cookieClient(cookie, header).POST("/inbound_shipments/_create", { body: announcement() }),
      );
      expectError(r, 403, "access_denied");
    }
    const ok = await cookieClient(cookie, csrf).POST("/inbound_shipments/_create", {
      body: announcement({ merchants_ref: "PORTAL-CSRF" }),
    });
    expect(ok.response.status).toBe(201);
  });

  it("does not open warehouse operations (a merchant there: 403), nor the session's answer to Basic callers", async () => {
    const { cookie, csrf } = await signIn();
    const id = await createShipment(m);
    const r = await expectUnchanged(srv, () =>
      cookieClient(cookie, csrf).POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: id } },
        body: { arrivals: [{ merchants_id: "SKU-1", qty: 1 }] } as never,
      }),
    );
    expectError(r, 403, "access_denied");
    expectError(await m.GET("/portal_sessions/current"), 401, "unauthorized");
  });

  it("is refused when malformed, unknown or expired", async () => {
    for (const cookie of ["portal_session=short", `portal_session=${"A".repeat(43)}`]) {
      const r = await cookieClient(cookie, "-").GET("/inbound_shipments");
      expectError(r, 401, "unauthorized");
      expect(r.response.headers.get("www-authenticate")).toBe('Session realm="logistics-portal"');
    }
    const { cookie } = await signIn();
    await sql`update portal_sessions set expires_at = now() - interval '1 second'`.execute(srv.handle.db);
    expectError(await cookieClient(cookie).GET("/inbound_shipments"), 401, "unauthorized");
  });

  it("ends on the server at sign-out, and the answer clears the cookie", async () => {
    const { cookie, csrf } = await signIn();
    const out = await cookieClient(cookie, csrf).POST("/portal_sessions/current/_delete");
    expect(out.data).toEqual({ success: true });
    expect(out.response.headers.get("set-cookie")).toMatch(
      /^portal_session=; Path=\/2015-01-01; HttpOnly; SameSite=Strict; Max-Age=0$/,
    );
    expectError(await cookieClient(cookie, csrf).GET("/portal_sessions/current"), 401, "unauthorized");
  });

  it("is ignored when Basic credentials are sent too: they decide", async () => {
    const { cookie } = await signIn(STAFF);
    const r = await createLogisticsClient({
      baseUrl: srv.baseUrl,
      username: `M-${MERCHANT}`,
      secret: `secret-${MERCHANT}`,
      headers: { Cookie: cookie },
    }).GET("/portal_users");
    expect(r.response.status).toBe(200); // a staff session could not list users; the merchant's secret can
  });
});

describe("portal users", () => {
  it("are created by the merchant (Basic) and by portal admins, not by staff; emails are unique in the merchant", async () => {
    const byMerchant = await m.POST("/portal_users/_create", {
      body: { email: "dave@portal-shop.example.com", password: "dave-password", role: "staff" },
    });
    expect(byMerchant.response.status).toBe(201);
    expect(byMerchant.data).toMatchObject({
      email: "dave@portal-shop.example.com",
      role: "staff",
      merchant_id: MERCHANT,
    });
    expect(JSON.stringify(byMerchant.data)).not.toContain("password");

    const admin = await signIn();
    const byAdmin = await cookieClient(admin.cookie, admin.csrf).POST("/portal_users/_create", {
      body: { email: "erin@portal-shop.example.com", password: "erin-password", role: "admin" },
    });
    expect(byAdmin.response.status).toBe(201);

    const staff = await signIn(STAFF);
    const c = cookieClient(staff.cookie, staff.csrf);
    expectError(
      await expectUnchanged(srv, () =>
        c.POST("/portal_users/_create", {
          body: { email: "frank@portal-shop.example.com", password: "frank-password", role: "admin" },
        }),
      ),
      403,
      "access_denied",
    );
    expectError(await c.GET("/portal_users"), 403, "access_denied");

    const dup = await expectUnchanged(srv, () =>
      m.POST("/portal_users/_create", {
        body: { email: "DAVE@portal-shop.example.com", password: "another-password", role: "staff" },
      }),
    );
    expectError(dup, 409, "conflict", ["/body/email"]);

    const list = await m.GET("/portal_users");
    expect(list.data?.items.map((u) => u.email)).toEqual(
      expect.arrayContaining([
        "anna@portal-shop.example.com",
        "dave@portal-shop.example.com",
        "erin@portal-shop.example.com",
      ]),
    );
    expect((await other.GET("/portal_users")).data?.items).toEqual([]);
  });

  it("refuses bad input: a short password, an unknown role, an extra property", async () => {
    const bad: [unknown, string][] = [
      [{ email: "g@portal-shop.example.com", password: "short", role: "staff" }, "/body/password"],
      [{ email: "g@portal-shop.example.com", password: "long-enough-pw", role: "owner" }, "/body/role"],
      [
        {
          email: "g@portal-shop.example.com",
          password: "long-enough-pw",
          role: "staff",
          merchant_id: "portal-other.example.com",
        },
        "/body/merchant_id",
      ],
    ];
    for (const [body, path] of bad)
      expectError(
        await expectUnchanged(srv, () => m.POST("/portal_users/_create", { body: body as never })),
        400,
        "validation_failed",
        [path],
      );
  });

  it("the operator's provisioning checks what the validator checks, and refuses an unknown merchant", async () => {
    await expect(provisionPortalUser(srv.handle.db, MERCHANT, "not-an-email", "long-enough-pw")).rejects.toMatchObject({
      code: "validation_failed",
    });
    await expect(
      provisionPortalUser(srv.handle.db, MERCHANT, "h@portal-shop.example.com", "short"),
    ).rejects.toMatchObject({ code: "validation_failed" });
    await expect(
      provisionPortalUser(srv.handle.db, "no-such.example.com", "h@portal-shop.example.com", "long-enough-pw"),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("a new password from the operator ends the user's sessions", async () => {
    const { cookie } = await signIn(STAFF);
    await provisionPortalUser(srv.handle.db, MERCHANT, STAFF.email, "bob-new-password", "staff");
    expectError(await cookieClient(cookie).GET("/inbound_shipments"), 401, "unauthorized");
    STAFF.password = "bob-new-password";
  });
});
