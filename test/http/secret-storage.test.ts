// How API secrets are stored and checked (issue 25): a generated secret by its SHA-256 digest, without a key
// derivation; one stored with scrypt before gains the digest on its first successful use, readable by the
// previous release still; a person's secret and a portal password keep scrypt; every failure costs one
// derivation, known account or not; a request that fails for another reason first costs none.
import { createHash, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { derivations } from "../../server/accounts/secrets.ts";
import { expectError, expectUnchanged, basicAuth } from "../helpers/fixtures.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
useTestServer(
  (s) => {
    srv = s;
  },
  { loginLimits: { perAddress: 0, perAccount: 0, windowMs: 60_000 } },
);

const storedHash = async (id: string) =>
  (await srv.handle.db.selectFrom("merchants").select("secret_hash").where("id", "=", id).executeTakeFirstOrThrow())
    .secret_hash;
const sha256 = (s: string) => createHash("sha256").update(s).digest("base64");

/** The result of `request` and how many key derivations it started. */
async function counted<R>(request: () => Promise<R>): Promise<{ result: R; derived: number }> {
  const before = derivations.started;
  const result = await request();
  return { result, derived: derivations.started - before };
}

const list = (user: string, secret: string, on = srv) => on.client(user, secret).GET("/inbound_shipments");

// Made like the previous release's generateSecret: 24 random bytes, base64url.
const OLD_GENERATED = "zYvj3EtoGH66fu1UwT7myklIvs-0ybWq";
const PERSON = "correct horse battery staple";
// As long as a generated secret, but a person's words: keeps scrypt.
const PERSON_LONG = "our-own-secret-for-the-shop-api-in-2024-xyz";

describe("generated secrets", () => {
  it("are 256 random bits, stored with their SHA-256 digest after the scrypt part, and checked without a key derivation", async () => {
    const { secret, generated } = await provisionAccount(srv.handle.db, "merchant", "generated.example.com");
    expect(generated).toBe(true);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await storedHash("generated.example.com");
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/]{43}=$/);
    expect(stored.split("$")[6]).toBe(sha256(secret));
    const { result, derived } = await counted(() => list("M-generated.example.com", secret));
    expect(result.response.status).toBe(200);
    expect(derived).toBe(0);
  });

  it("stored with scrypt by the previous release: the first successful use adds the digest, the scrypt part stays, and later checks derive nothing", async () => {
    expect(OLD_GENERATED).toHaveLength(32);
    await provisionAccount(srv.handle.db, "merchant", "legacy.example.com", OLD_GENERATED);
    const before = await storedHash("legacy.example.com");
    expect(before.split("$")).toHaveLength(6);

    const first = await counted(() => list("M-legacy.example.com", OLD_GENERATED));
    expect(first.result.response.status).toBe(200);
    expect(first.derived).toBe(1);
    const after = await storedHash("legacy.example.com");
    expect(after).toBe(`${before}$${sha256(OLD_GENERATED)}`);
    // The previous release reads the first six fields: its scrypt check still passes after a rollback.
    const [, n, r, p, salt, key] = after.split("$");
    expect(
      scryptSync(OLD_GENERATED, Buffer.from(salt!, "base64"), 32, { N: +n!, r: +r!, p: +p! }).toString("base64"),
    ).toBe(key);

    // Another instance on the same database has no cache: the digest alone decides.
    const second = await startTestServer({ database: srv.handle });
    try {
      const again = await counted(() => list("M-legacy.example.com", OLD_GENERATED, second));
      expect(again.result.response.status).toBe(200);
      expect(again.derived).toBe(0);
      const wrong = await counted(() =>
        expectUnchanged(srv, () => list("M-legacy.example.com", `${OLD_GENERATED.slice(0, -1)}x`, second)),
      );
      expectError(wrong.result, 401, "unauthorized");
      expect(wrong.derived).toBe(1);
    } finally {
      await second.close();
    }
  });
});

describe("secrets people choose", () => {
  it("keep scrypt, short or as long as a generated one", async () => {
    for (const [id, secret] of [
      ["person.example.com", PERSON],
      ["person-long.example.com", PERSON_LONG],
    ] as const) {
      await provisionAccount(srv.handle.db, "merchant", id, secret);
      const before = await storedHash(id);
      expect(before.split("$")).toHaveLength(6);
      const { result, derived } = await counted(() => list(`M-${id}`, secret));
      expect(result.response.status).toBe(200);
      expect(derived).toBe(1);
      expect(await storedHash(id)).toBe(before);
    }
  });
});

describe("wrong secrets", () => {
  it("are 401 unauthorized with a Basic challenge, change nothing, and cost one key derivation each, whether the account exists or not", async () => {
    const { secret } = await provisionAccount(srv.handle.db, "merchant", "target.example.com");
    await provisionAccount(srv.handle.db, "merchant", "target-person.example.com", PERSON);
    const other = (await provisionAccount(srv.handle.db, "merchant", "unrelated.example.com")).secret;
    for (const [user, guess] of [
      ["M-target.example.com", other],
      ["M-target.example.com", PERSON],
      ["M-target.example.com", secret.toUpperCase()],
      ["M-target-person.example.com", `${PERSON}!`],
      ["M-target-person.example.com", other],
      ["M-nobody.example.com", other],
      ["M-nobody.example.com", PERSON],
      ["W-nobody.example.com", secret],
    ] as const) {
      const { result, derived } = await counted(() => expectUnchanged(srv, () => list(user, guess)));
      expectError(result, 401, "unauthorized");
      expect(result.response.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
      expect(derived, `${user} ${guess}`).toBe(1);
    }
  });
});

describe("a request that fails for another reason first", () => {
  const send = (path: string, method: string) =>
    fetch(`${srv.baseUrl}${path}`, {
      method,
      headers: { Authorization: basicAuth("M-nobody.example.com", PERSON) },
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code: string } }));

  it("an unknown route is 404 not_found and a method the route lacks 405 method_not_allowed, without a key derivation", async () => {
    const unknown = await counted(() => expectUnchanged(srv, () => send("/no_such_things", "GET")));
    expect(unknown.result).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(unknown.derived).toBe(0);
    const method = await counted(() => expectUnchanged(srv, () => send("/inbound_shipments", "PUT")));
    expect(method.result).toMatchObject({ status: 405, body: { code: "method_not_allowed" } });
    expect(method.derived).toBe(0);
  });

  it("a body that cannot be read is 415 or 413 from its headers alone, without a key derivation", async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${srv.baseUrl}/inbound_shipments/_create`, {
        method: "POST",
        headers: { Authorization: basicAuth("M-nobody.example.com", PERSON), ...headers },
        body,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code: string } }));
    const text = await counted(() => expectUnchanged(srv, () => post({ "Content-Type": "text/plain" }, "hello")));
    expect(text.result).toMatchObject({ status: 415, body: { code: "unsupported_media_type" } });
    expect(text.derived).toBe(0);
    const latin = await counted(() =>
      expectUnchanged(srv, () => post({ "Content-Type": "application/json; charset=latin1" }, "{}")),
    );
    expect(latin.result).toMatchObject({ status: 415, body: { code: "unsupported_media_type" } });
    expect(latin.derived).toBe(0);
    const large = await counted(() =>
      expectUnchanged(srv, () => post({ "Content-Type": "application/json" }, `{"x":"${"z".repeat(1024 * 1024)}"}`)),
    );
    expect(large.result).toMatchObject({ status: 413, body: { code: "payload_too_large" } });
    expect(large.derived).toBe(0);
  });

  it("an address over its failed sign-in limit gets 429 rate_limited without a key derivation", async () => {
    const limited = await startTestServer({
      database: srv.handle,
      loginLimits: { perAddress: 0, perAccount: 1, windowMs: 60_000 },
    });
    try {
      await provisionAccount(srv.handle.db, "merchant", "limited.example.com", PERSON);
      expectError(await list("M-limited.example.com", "wrong-secret", limited), 401, "unauthorized");
      const { result, derived } = await counted(() => list("M-limited.example.com", PERSON, limited));
      expectError(result, 429, "rate_limited");
      expect(Number(result.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(derived).toBe(0);
    } finally {
      await limited.close();
    }
  });
});
