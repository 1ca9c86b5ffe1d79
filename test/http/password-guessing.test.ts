// Regression tests of issue 6, finding 4: guessing secrets is throttled per client address and per
// account+address (429 rate_limited with Retry-After), never locks the owner out from elsewhere,
// costs the same for unknown accounts, and cannot queue key derivations without bound.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { basicAuth, expectUnchanged } from "../helpers/fixtures.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
const SECRET = "the-right-secret-1";
const LIMITS = { perAddress: 30, perAccount: 5, windowMs: 60_000 };

useTestServer(
  async (s) => {
    srv = s;
    for (const id of ["victim.example.com", "victim2.example.com", "bystander.example.com"])
      await provisionAccount(srv.handle.db, "merchant", id, SECRET);
  },
  { loginLimits: LIMITS },
);

interface Answer {
  status: number;
  retryAfter?: string;
  body: { code?: string; details?: unknown[] };
}

/** GET /inbound_shipments from a chosen loopback address (the server sees it as the client's address). */
function get(from: string, user: string, secret: string): Promise<Answer> {
  const url = new URL(`${srv.baseUrl}/inbound_shipments`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        localAddress: from,
        agent: false,
        headers: { Authorization: basicAuth(user, secret) },
      },
      (res) => {
        let text = "";
        res
          .setEncoding("utf8")
          .on("data", (c) => (text += c))
          .on("end", () => {
            resolve({
              status: res.statusCode!,
              retryAfter: res.headers["retry-after"],
              body: JSON.parse(text),
            });
          });
      },
    );
    req.on("error", reject).end();
  });
}

describe("failed sign-ins per account and address", () => {
  it(`${LIMITS.perAccount} wrong secrets are 401; then that address gets 429 with Retry-After, even with the right secret`, async () => {
    await expectUnchanged(srv, async () => {
      for (let i = 0; i < LIMITS.perAccount; i++)
        expect((await get("127.0.0.1", "M-victim.example.com", `guess-${i}`)).status).toBe(401);
      for (const secret of ["guess-x", SECRET]) {
        const r = await get("127.0.0.1", "M-victim.example.com", secret);
        expect(r.status).toBe(429);
        expect(r.body).toMatchObject({ code: "rate_limited", details: [] });
        expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(r.retryAfter)).toBeLessThanOrEqual(LIMITS.windowMs / 1000);
      }
    });
  });

  it("the same account written in other case counts as the same account", async () => {
    expect((await get("127.0.0.1", "M-VICTIM.example.com", "guess-y")).status).toBe(429);
  });

  it("the owner at another address is not locked out, and another account at the first address is not either", async () => {
    expect((await get("127.0.0.2", "M-victim.example.com", SECRET)).status).toBe(200);
    expect((await get("127.0.0.1", "M-bystander.example.com", SECRET)).status).toBe(200);
  });
});

describe("failed sign-ins per address, over all accounts", () => {
  it(`after ${LIMITS.perAddress} failures with many names, that address gets 429 for every account; other addresses do not`, async () => {
    const from = "127.0.0.3";
    let refused = 0;
    for (let i = 0; i < LIMITS.perAddress; i++) {
      // Unknown and known accounts, under the per-account limit each.
      const user = i % 6 === 0 ? "M-victim2.example.com" : `M-nobody-${i}.example.com`;
      if ((await get(from, user, `guess-${i}`)).status === 401) refused++;
    }
    expect(refused).toBe(LIMITS.perAddress);
    const blocked = await get(from, "M-bystander.example.com", SECRET);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe("rate_limited");
    expect((await get("127.0.0.4", "M-bystander.example.com", SECRET)).status).toBe(200);
  });
});

describe("the cost of a failed check", () => {
  it("an unknown account costs the same key derivation as a wrong secret (no timing oracle)", async () => {
    const time = async (user: string, i: number) => {
      const t = process.hrtime.bigint();
      expect((await get("127.0.0.5", user, `guess-${i}`)).status).toBe(401);
      return Number(process.hrtime.bigint() - t) / 1e6;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time("M-bystander.example.com", i));
      unknown.push(await time(`M-unknown-${i}.example.com`, i));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Before: 36 ms against 1.6 ms. Now both run scrypt; allow for a noisy machine.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
    expect(median(unknown)).toBeLessThan(median(known) * 2.5);
  });

  it("a flood of wrong secrets is refused beyond a short queue (503 with Retry-After) instead of queueing scrypt without bound", async () => {
    const flood = await startTestServer({ loginLimits: { perAddress: 0, perAccount: 0, windowMs: 60_000 } });
    try {
      await provisionAccount(flood.handle.db, "merchant", "flood.example.com", SECRET);
      const auth = (i: number) => basicAuth("M-flood.example.com", `guess-${i}`);
      const answers = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          fetch(`${flood.baseUrl}/inbound_shipments`, { headers: { Authorization: auth(i) } }).then(async (r) => ({
            status: r.status,
            retryAfter: r.headers.get("retry-after"),
            code: ((await r.json()) as { code: string }).code,
          })),
        ),
      );
      const statuses = new Set(answers.map((a) => a.status));
      expect(
        [...statuses].every((s) => s === 401 || s === 503),
        JSON.stringify([...statuses]),
      ).toBe(true);
      const overflow = answers.filter((a) => a.status === 503);
      expect(overflow.length).toBeGreaterThan(0);
      expect(overflow.every((a) => a.code === "unavailable" && a.retryAfter === "1")).toBe(true);
      // The right secret still works once the flood has passed.
      const ok = await fetch(`${flood.baseUrl}/inbound_shipments`, {
        headers: { Authorization: basicAuth("M-flood.example.com", SECRET) },
      });
      expect(ok.status).toBe(200);
    } finally {
      await flood.close();
    }
  });
});
