// Behind a reverse proxy that terminates TLS: with TRUST_PROXY the session cookie is Secure and the sign-in
// throttle counts the client's forwarded address; without it, forwarding headers change nothing.
import { describe, expect, it } from "vitest";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";

let behindProxy: TestServer;
const MERCHANT = "proxied-shop.example.com";
const USER = { email: "pia@proxied-shop.example.com", password: "pia-password-12" };
const limits = { perAddress: 3, perAccount: 100, windowMs: 60_000 };

useTestServer(
  async (s) => {
    behindProxy = s;
    await s.merchant(MERCHANT);
    await provisionPortalUser(s.handle.db, MERCHANT, USER.email, USER.password, "admin");
  },
  { trustProxy: ["loopback"], loginLimits: limits },
);

async function signIn(srv: TestServer, body: typeof USER, headers: Record<string, string>) {
  const r = await fetch(`${srv.baseUrl}/portal_sessions/_create`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: r.status, cookie: r.headers.get("set-cookie") };
}

describe("When the service runs behind a TLS-terminating proxy named by TRUST_PROXY", () => {
  it("the session cookie is Secure when the proxy says the client used HTTPS, and not when it says HTTP", async () => {
    const https = await signIn(behindProxy, USER, { "X-Forwarded-Proto": "https" });
    expect(https.status).toBe(201);
    expect(https.cookie).toMatch(/; Secure$/);
    const http = await signIn(behindProxy, USER, { "X-Forwarded-Proto": "http" });
    expect(http.status).toBe(201);
    expect(http.cookie).not.toContain("Secure");
  });

  it("the sign-in throttle counts the client's address, not the proxy's: one client's failures leave another's alone", async () => {
    const wrong = { ...USER, password: "not-the-password" };
    const from = (address: string) => ({ "X-Forwarded-For": address });
    for (let i = 0; i < limits.perAddress; i++)
      expect((await signIn(behindProxy, wrong, from("203.0.113.5"))).status).toBe(401);
    expect((await signIn(behindProxy, USER, from("203.0.113.5"))).status).toBe(429);
    expect((await signIn(behindProxy, USER, from("203.0.113.6"))).status).toBe(201);
  });
});

describe("Without TRUST_PROXY", () => {
  it("forwarding headers are ignored: no Secure cookie on plain HTTP, and a forged address does not escape the throttle", async () => {
    const direct = await startTestServer({ loginLimits: limits });
    try {
      await direct.merchant(MERCHANT);
      await provisionPortalUser(direct.handle.db, MERCHANT, USER.email, USER.password, "admin");
      const r = await signIn(direct, USER, { "X-Forwarded-Proto": "https" });
      expect(r.status).toBe(201);
      expect(r.cookie).not.toContain("Secure");
      const wrong = { ...USER, password: "not-the-password" };
      for (let i = 0; i < limits.perAddress; i++)
        expect((await signIn(direct, wrong, { "X-Forwarded-For": `198.51.100.${i}` })).status).toBe(401);
      expect((await signIn(direct, USER, { "X-Forwarded-For": "198.51.100.99" })).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});

describe("TRUST_PROXY's value", () => {
  it.each([
    ["", false],
    ["false", false],
    ["1", 1],
    ["loopback, 10.0.0.0/8", ["loopback", "10.0.0.0/8"]],
    ["::1,fd00::/8", ["::1", "fd00::/8"]],
  ])("%j is read as %j", async (raw, value) => {
    const { SETTINGS } = await import("../../server/config/settings.ts");
    expect(SETTINGS.trustProxy.read(raw)).toEqual({ value });
  });

  it.each(["yes", "11", "10.0.0.0/33", "300.1.1.1", "proxy.example.com", "loopback,"])(
    "%j is refused with a message naming the setting",
    async (raw) => {
      const { SETTINGS } = await import("../../server/config/settings.ts");
      expect(SETTINGS.trustProxy.read(raw).problem).toMatch(/^TRUST_PROXY must be false, a number of proxies 1-10/);
    },
  );
});
