// Key derivations in lanes (issue 25): a flood of wrong secrets, on unknown key ids or on one merchant's id,
// fills its own lane only. Another merchant's sign-in is served while that lane is still full (checked by the
// queue's state, not by timing), and the flood's overflow is 503 unavailable with Retry-After.
import { describe, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { accountLane, ANONYMOUS_LANE } from "../../server/accounts/derivations.ts";
import { derivations } from "../../server/accounts/secrets.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { basicAuth } from "../helpers/fixtures.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
const STEADY = "steady.example.com";
const STEADY_SECRET = "steady merchant's own secret";
const USER = { email: "ops@steady.example.com", password: "steady-password-1" };
const VICTIM = "victim.example.com";
let victimSecret: string;

useTestServer(
  async (s) => {
    srv = s;
    await provisionAccount(s.handle.db, "merchant", STEADY, STEADY_SECRET);
    await provisionPortalUser(s.handle.db, STEADY, USER.email, USER.password, "admin");
    victimSecret = (await provisionAccount(s.handle.db, "merchant", VICTIM)).secret;
  },
  // No per-address limit: the flood comes from one test address, as many addresses under their limits would.
  { loginLimits: { perAddress: 0, perAccount: 0, windowMs: 60_000 } },
);

interface Answer {
  status: number;
  code: string;
  retryAfter: string | null;
}

const send = (user: string, secret: string, on = srv): Promise<Answer> =>
  fetch(`${on.baseUrl}/inbound_shipments`, { headers: { Authorization: basicAuth(user, secret) } }).then(async (r) => ({
    status: r.status,
    code: ((await r.json()) as { code?: string }).code ?? "",
    retryAfter: r.headers.get("retry-after"),
  }));

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const full = (lane: string) => () => derivations.load(lane).waiting >= derivations.maxWaiting;

/** Every answer of a flood is 401 unauthorized or, beyond its lane's bound, 503 unavailable with Retry-After: 1. */
function expectFloodAnswers(answers: Answer[]) {
  const refused = answers.filter((a) => a.status === 503);
  expect(refused.length).toBeGreaterThan(0);
  for (const a of refused) expect(a).toEqual({ status: 503, code: "unavailable", retryAfter: "1" });
  for (const a of answers.filter((x) => x.status !== 503))
    expect(a).toMatchObject({ status: 401, code: "unauthorized" });
}

describe("a flood of wrong secrets", () => {
  it("on unknown key ids fills the anonymous lane only: another merchant's portal sign-in and cold API check are served while it is full", async () => {
    const flood = Array.from({ length: 120 }, (_, i) => send(`M-nobody-${i}.example.com`, `guess-${i}`));
    await until(full(ANONYMOUS_LANE), "the anonymous lane to fill");
    const [signIn, api] = await Promise.all([
      srv.client().POST("/portal_sessions/_create", { body: USER }),
      srv.client(`M-${STEADY}`, STEADY_SECRET).GET("/inbound_shipments"),
    ]);
    // Both took a derivation in the merchant's lane while the anonymous one still had its queue to work through.
    const anonymousLeft = derivations.load(ANONYMOUS_LANE).waiting;
    expect(signIn.response.status).toBe(201);
    expect(api.response.status).toBe(200);
    expect(anonymousLeft).toBeGreaterThan(0);
    expectFloodAnswers(await Promise.all(flood));
  });

  it("on one merchant's key id fills that merchant's lane only: the others are served, and so is the merchant's own generated secret", async () => {
    const flood = Array.from({ length: 120 }, (_, i) => send(`M-${VICTIM}`, `guess-${i}`));
    const lane = accountLane("merchant", VICTIM);
    await until(full(lane), "the merchant's lane to fill");
    const [other, stranger, own] = await Promise.all([
      srv.client().POST("/portal_sessions/_create", { body: USER }),
      send("M-stranger.example.com", "wrong-secret"),
      // Checked by its digest: needs no derivation, so no place in the full lane.
      send(`M-${VICTIM}`, victimSecret),
    ]);
    const victimLeft = derivations.load(lane).waiting;
    expect(other.response.status).toBe(201);
    expect(stranger).toMatchObject({ status: 401, code: "unauthorized" });
    expect(own.status).toBe(200);
    expect(victimLeft).toBeGreaterThan(0);
    expectFloodAnswers(await Promise.all(flood));
  });
});

describe("refused attempts on unknown key ids", () => {
  it("count against the address's failed sign-in limit like wrong secrets: they could not have succeeded", async () => {
    const LIMIT = 80;
    const limited = await startTestServer({
      database: srv.handle,
      loginLimits: { perAddress: LIMIT, perAccount: 0, windowMs: 60_000 },
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 150 }, (_, i) => send(`M-nobody-${i}.example.com`, `guess-${i}`, limited)),
      );
      const wrong = answers.filter((a) => a.status === 401).length;
      // Fewer 401s than the limit: only the 503s counted as well can have reached it.
      expect(wrong).toBeLessThan(LIMIT);
      expect(answers.filter((a) => a.status === 503 || a.status === 429).length).toBeGreaterThan(0);
      const after = await send("M-nobody-else.example.com", "guess", limited);
      expect(after).toMatchObject({ status: 429, code: "rate_limited" });
    } finally {
      await limited.close();
    }
  });
});
