// One person, several shops: signing in with an email that portal users of several merchants have. The
// password decides which merchants are candidates; only when several match is the person asked to choose.
import { describe, expect, it } from "vitest";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
const SHOPS = ["north-shop.example.com", "south-shop.example.com", "west-shop.example.com"] as const;
const [NORTH, SOUTH, WEST] = SHOPS;
const EMAIL = "pat@example.org";
const SAME = "the-same-password";

useTestServer(async (s) => {
  srv = s;
  for (const shop of SHOPS) await s.merchant(shop);
  // Pat serves north (admin) and south (staff) with one password, and west with another.
  await provisionPortalUser(s.handle.db, NORTH, EMAIL, SAME, "admin");
  await provisionPortalUser(s.handle.db, SOUTH, "PAT@example.org", SAME, "staff");
  await provisionPortalUser(s.handle.db, WEST, EMAIL, "west-password-1", "admin");
});

const signIn = (body: { email: string; password: string; merchant_id?: string }) =>
  srv.client().POST("/portal_sessions/_create", { body });

describe("signing in with an email several merchants' users have", () => {
  it("asks which merchant when the password is that of several: 300, only those merchants, no session", async () => {
    const r = await expectUnchanged(srv, () => signIn({ email: "Pat@Example.org", password: SAME }));
    expect(r.response.status).toBe(300);
    expect(r.error).toEqual({
      success: false,
      code: "merchant_choice_required",
      message: expect.stringContaining("merchant_id"),
      merchants: [{ merchant_id: NORTH }, { merchant_id: SOUTH }],
    });
    expect(r.response.headers.get("set-cookie")).toBeNull();
    expect(r.response.headers.get("cache-control")).toBe("no-store");
  });

  it("signs in to the merchant named in merchant_id, as that merchant's user", async () => {
    for (const [merchant, role] of [
      [SOUTH, "staff"],
      [NORTH.toUpperCase(), "admin"],
    ] as const) {
      const r = await signIn({ email: EMAIL, password: SAME, merchant_id: merchant });
      expect(r.response.status).toBe(201);
      expect(r.data!.user).toMatchObject({ email: EMAIL, merchant_id: merchant.toLowerCase(), role });
      expect(r.response.headers.get("set-cookie")).toMatch(/^portal_session=/);
    }
  });

  it("goes straight in where only one merchant's user has the password", async () => {
    const r = await signIn({ email: EMAIL, password: "west-password-1" });
    expect(r.response.status).toBe(201);
    expect(r.data!.user).toMatchObject({ merchant_id: WEST, role: "admin" });
  });

  it("refuses a merchant_id whose user has another password, or no user with the email, like a wrong password", async () => {
    for (const body of [
      { email: EMAIL, password: SAME, merchant_id: WEST },
      { email: EMAIL, password: SAME, merchant_id: "no-such-shop.example.com" },
      { email: "nobody@example.org", password: SAME, merchant_id: NORTH },
      { email: EMAIL, password: "wrong-password" },
    ]) {
      const r = await expectUnchanged(srv, () => signIn(body));
      expect(expectError(r, 401, "unauthorized").message).toBe("Wrong email or password.");
      expect(r.response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("refuses a merchant_id that cannot be one with 400 naming it", async () => {
    for (const merchant_id of ["", "no spaces.example.com", "-leading.example.com", `${"a".repeat(101)}`]) {
      const r = await expectUnchanged(srv, () => signIn({ email: EMAIL, password: SAME, merchant_id }));
      expectError(r, 400, "validation_failed", ["/body/merchant_id"]);
    }
  });
});
