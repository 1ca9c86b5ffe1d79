// Verified credentials kept per instance (server/accounts/domain.ts, Authenticator): a pair in steady use is never
// made to wait for a key derivation when its time to live ends; it is checked again in the background, and dropped
// if it is no longer right. Past a second time to live without use, a pair is checked before it is accepted again.
// (Issue 53: every 60 s the requests of a merchant in steady use waited together for one scrypt run, the tail at an
// offered 1,000 req/s; bench/levers.md section 27.)
import { afterAll, beforeAll, expect, it } from "vitest";
import { Authenticator, provisionAccount } from "../../server/accounts/domain.ts";
import { upsertAccount } from "../../server/accounts/db.ts";
import { accountLane } from "../../server/accounts/derivations.ts";
import { derivations, hashSecret } from "../../server/accounts/secrets.ts";
import { createTestDatabase } from "../helpers/database.ts";

// Long beside a key derivation on a busy machine (up to ~0.5 s), so that a pair checked again is still kept after.
const TTL_MS = 1_000;
const ADDRESS = "192.0.2.7";
let handle: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The secret changed in the database without the announcement that makes instances forget (a missed signal). */
const changeSilently = async (id: string, secret: string) =>
  upsertAccount(handle.db, "merchant", id, await hashSecret(secret));

/** Until the background check of `id`'s pair, started after `before` derivations, has ended. */
async function checkedAgain(id: string, before: number) {
  for (
    let i = 0;
    i < 500 && (derivations.started === before || derivations.load(accountLane("merchant", id)).running);
    i++
  )
    await sleep(5);
  await sleep(20);
}

/** An authenticator that verified and kept `id`'s secret `first`; then the secret became `second`, unannounced. */
async function keptThenChanged(id: string, first: string, second: string): Promise<Authenticator> {
  await provisionAccount(handle.db, "merchant", id, first);
  const a = new Authenticator(handle.db, undefined, TTL_MS);
  expect((await verified(a, `M-${id}`, first)).ok).toBe(true);
  await changeSilently(id, second);
  return a;
}

/** What `verify` answers and how many key derivations it started before answering. */
async function verified(a: Authenticator, user: string, secret: string) {
  const before = derivations.started;
  const principal = await a.verify(user, secret, ADDRESS);
  return { ok: principal !== undefined, derived: derivations.started - before };
}

it("a pair used after its time to live is accepted at once while it is checked again, and kept", async () => {
  await provisionAccount(handle.db, "merchant", "steady.example.com", "steady secret 1");
  const a = new Authenticator(handle.db, undefined, TTL_MS);
  expect(await verified(a, "M-steady.example.com", "steady secret 1")).toEqual({ ok: true, derived: 1 });
  expect(await verified(a, "M-steady.example.com", "steady secret 1")).toEqual({ ok: true, derived: 0 });
  await sleep(TTL_MS + 50);
  // Past its time: answered from what was kept, before any derivation; the check runs behind it.
  const before = derivations.started;
  expect(await verified(a, "M-steady.example.com", "steady secret 1")).toEqual({ ok: true, derived: 0 });
  // Requests that come while the check runs are answered too, and share it.
  for (const r of await Promise.all([0, 1, 2].map(() => verified(a, "M-steady.example.com", "steady secret 1"))))
    expect(r.ok).toBe(true);
  await checkedAgain("steady.example.com", before);
  expect(derivations.started - before).toBe(1);
  // Kept anew for a time to live: no derivation.
  expect(await verified(a, "M-steady.example.com", "steady secret 1")).toEqual({ ok: true, derived: 0 });
});

it("a pair that is no longer right is dropped by that check: the next request is refused", async () => {
  const a = await keptThenChanged("changed.example.com", "changed secret 1", "changed secret 2");
  // Within its time to live the kept pair still counts (the announced change is what ends it at once).
  expect((await verified(a, "M-changed.example.com", "changed secret 1")).ok).toBe(true);
  await sleep(TTL_MS + 50);
  const before = derivations.started;
  // Accepted while its check runs, then refused.
  expect((await verified(a, "M-changed.example.com", "changed secret 1")).ok).toBe(true);
  await checkedAgain("changed.example.com", before);
  expect((await verified(a, "M-changed.example.com", "changed secret 1")).ok).toBe(false);
  expect((await verified(a, "M-changed.example.com", "changed secret 2")).ok).toBe(true);
});

it("a pair unused for more than a second time to live is checked before it is accepted", async () => {
  const a = await keptThenChanged("idle.example.com", "idle secret 1", "idle secret 2");
  await sleep(2 * TTL_MS + 100);
  expect(await verified(a, "M-idle.example.com", "idle secret 1")).toEqual({ ok: false, derived: 1 });
});

it("a forgotten pair is refused at once, past its time to live too", async () => {
  const a = await keptThenChanged("forgot.example.com", "forgot secret 1", "forgot secret 2");
  await sleep(TTL_MS + 50);
  a.forgetCredentials();
  expect(await verified(a, "M-forgot.example.com", "forgot secret 1")).toEqual({ ok: false, derived: 1 });
});

it("a header whose credentials were verified is known at once, until its time to live ends or the secrets are forgotten", async () => {
  await provisionAccount(handle.db, "merchant", "header.example.com", "header secret 1");
  const a = new Authenticator(handle.db, undefined, TTL_MS);
  const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
  const header = basic("M-header.example.com", "header secret 1");
  // Not before verify has checked it, nor after a verify without the header.
  expect(a.knownBasic(header, ADDRESS)).toBeUndefined();
  await a.verify("M-header.example.com", "header secret 1", ADDRESS);
  expect(a.knownBasic(header, ADDRESS)).toBeUndefined();
  await a.verify("M-header.example.com", "header secret 1", ADDRESS, header);
  expect(a.knownBasic(header, ADDRESS)).toMatchObject({ role: "merchant", id: "header.example.com" });
  // A wrong secret is never remembered.
  const wrong = basic("M-header.example.com", "header secret 2");
  expect(await a.verify("M-header.example.com", "header secret 2", ADDRESS, wrong)).toBeUndefined();
  expect(a.knownBasic(wrong, ADDRESS)).toBeUndefined();
  // Past its time to live: verify decides again (it answers a stale pair while it checks it again).
  await sleep(TTL_MS + 50);
  expect(a.knownBasic(header, ADDRESS)).toBeUndefined();
  const before = derivations.started;
  await a.verify("M-header.example.com", "header secret 1", ADDRESS, header);
  await checkedAgain("header.example.com", before);
  expect(a.knownBasic(header, ADDRESS)).toMatchObject({ id: "header.example.com" });
  // An announced change of a secret: forgotten at once.
  a.forgetCredentials();
  expect(a.knownBasic(header, ADDRESS)).toBeUndefined();
});
