import { hash } from "node:crypto";
import type { components } from "../../generated/api.ts";
import { announceCacheChange } from "../db/cache-signal.ts";
import type { Db } from "../db/database.ts";
import { inTransaction } from "../db/transaction.ts";
import { AppError } from "../shared/errors.ts";
import { findSecretHash, replaceSecretHash, upsertAccount, type Role } from "./db.ts";
import { accountLane } from "./derivations.ts";
import {
  generateSecret,
  hashGeneratedSecret,
  hashSecret,
  NoAccountRefusal,
  verifySecret,
  wantsDigest,
  withDigest,
} from "./secrets.ts";
import { LoginThrottle } from "./throttle.ts";
import { keyPrincipal, type PublishableOf } from "../publishable-keys/keys.ts";
import { TtlCache } from "../shared/ttl-cache.ts";

export interface Principal {
  /** `visitor`: not signed in, on the one operation that allows it (portal sign-in); `id` is the address. */
  role: Role | "visitor";
  id: string;
  /** Scope for idempotency keys, limits and logs: "M-shop.example.com". */
  name: string;
  /** Set when a session cookie authenticated the request (auth/sessions.ts): a portal or a station session. */
  session?: SessionOf;
  /** Set when a publishable key (`Bearer pk_...`, a checkout page) authenticated the request: role `merchant`. */
  publishable?: PublishableOf;
}

/** What a request knows of the session that authenticated it, whichever cookie it came in. */
interface SessionBase {
  tokenHash: string;
  csrfToken: string;
  expiresAt: Date;
  /** The user's password was reset (by an admin, a supervisor): the session may only read itself, sign out and change it. */
  mustChangePassword: boolean;
}

/** A merchant portal user's session (`portal_session`). */
export interface PortalSessionOf extends SessionBase {
  cookie: "portal_session";
  user: components["schemas"]["PortalUser"];
  userRole: components["schemas"]["PortalUserRole"];
}

/** A warehouse user's session at a receiving station (`station_session`): a principal of role `operator`. */
export interface StationSessionOf extends SessionBase {
  cookie: "station_session";
  user: components["schemas"]["WarehouseUser"];
  userRole: components["schemas"]["WarehouseUserRole"];
}

export type SessionOf = PortalSessionOf | StationSessionOf;

/** The portal session of a principal, if a portal cookie authenticated it. */
export const portalSessionOf = (p: Principal): PortalSessionOf | undefined =>
  p.session?.cookie === "portal_session" ? p.session : undefined;
/** The station session of a principal, if a station cookie authenticated it. */
export const stationSessionOf = (p: Principal): StationSessionOf | undefined =>
  p.session?.cookie === "station_session" ? p.session : undefined;

/** The refusal of an address the login throttle holds back for `wait` seconds. */
const throttled = (wait: number) =>
  new AppError("rate_limited", `Too many failed sign-ins from this address. Retry in ${wait} s.`, [], {
    "Retry-After": String(wait),
  });

// Merchant ids look like domain names; operator ids follow the same rule.
export const ACCOUNT_ID = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,98}[A-Za-z0-9])?$/;

/** Account ids are case-insensitive (like the domain names they resemble): kept in lower case. */
export function parseUsername(username: string): { role: Role; id: string } | undefined {
  const m = /^([MW])-(.+)$/.exec(username);
  if (!m || !ACCOUNT_ID.test(m[2]!)) return undefined;
  return { role: m[1] === "M" ? "merchant" : "operator", id: m[2]!.toLowerCase() };
}

const nameOf = (p: { role: Role; id: string }) => `${p.role === "merchant" ? "M" : "W"}-${p.id}`;

/**
 * Verifies Basic credentials. scrypt is deliberately slow (generated secrets skip it, secrets.ts), so verified pairs are kept for a short
 * time, keyed by a digest of both parts: a changed secret misses the cache. Failed attempts are
 * counted by the login throttle; an address over its limit is refused before any check.
 *
 * A pair used after its time to live, and less than one more past it, is still accepted while one check of it runs
 * in the background (the rule of TtlCache): credentials in steady use never make a request wait for scrypt at
 * expiry. Before this, every 60 s the requests of a merchant in steady use waited together for one key derivation
 * (37 ms on a quiet machine, 560 ms on a busy one), the tail at an offered 1,000 req/s (bench/levers.md section
 * 25). A check that finds the pair no longer right drops it, so the next request is refused; an announced change
 * of a secret (forgetCredentials) still refuses the old one at once.
 */
export class Authenticator {
  private cache = new Map<string, { principal: Principal; until: number }>();
  /**
   * Authorization headers whose credentials were verified, by a digest of the whole header: the cache's key and the
   * account's name. A request that sends the same header again finds its principal without decoding the header
   * (knownBasic). Digests only, as the cache: no secret is kept in memory.
   */
  private headers = new Map<string, { key: string; name: string }>();
  /** Counts forgetCredentials calls: a check that began before one does not keep what it found. */
  private generation = 0;
  private inFlight = new Map<string, Promise<Principal | undefined>>();
  private throttle: LoginThrottle;
  /** Working publishable keys by token (null: unknown or revoked), for a second: a revoke reaches every instance within it. */
  private publishableKeys = new TtlCache<Principal | null>(1000);
  constructor(
    private db: Db,
    throttle?: LoginThrottle,
    private ttlMs = 60_000,
    private maxEntries = 10_000,
  ) {
    this.throttle = throttle ?? new LoginThrottle(db);
  }

  /**
   * The principal of an Authorization header whose credentials were verified moments ago (fresh in the cache) and
   * whose address the throttle does not hold back, at once; undefined otherwise: then verify decides (a stale entry,
   * a throttled address, a changed secret). Every authenticated request asks this first.
   */
  knownBasic(header: string, address: string): Principal | undefined {
    const known = this.headers.get(hash("sha256", header, "base64"));
    if (known === undefined) return undefined;
    const hit = this.cache.get(known.key);
    if (hit === undefined || hit.until <= Date.now()) return undefined;
    return this.throttle.knownBlockedFor(address, known.name) > 0 ? undefined : hit.principal;
  }

  /**
   * The principal, or undefined for wrong credentials; throws rate_limited while `address` is throttled. `header`:
   * the Authorization header the credentials came in, remembered (as a digest) once they are verified.
   */
  async verify(username: string, secret: string, address: string, header?: string): Promise<Principal | undefined> {
    const principal = await this.verifyPair(username, secret, address);
    if (principal && header !== undefined) this.rememberHeader(header, username, secret);
    return principal;
  }

  private rememberHeader(header: string, username: string, secret: string) {
    const parsed = parseUsername(username);
    const name = parsed ? nameOf(parsed) : username;
    if (this.headers.size >= this.maxEntries) this.headers.clear();
    this.headers.set(hash("sha256", header, "base64"), { key: hash("sha256", `${name}\0${secret}`, "base64"), name });
  }

  private async verifyPair(username: string, secret: string, address: string): Promise<Principal | undefined> {
    const parsed = parseUsername(username);
    const name = parsed ? nameOf(parsed) : username;
    // One call instead of a Hash object and three updates: the same digest, a third of the time (every request).
    const key = hash("sha256", `${name}\0${secret}`, "base64");
    const hit = this.cache.get(key);
    const now = Date.now();
    // Credentials verified moments ago skip the shared counts (a round trip on every request); any
    // other attempt reads them before the costly check.
    const fresh = hit !== undefined && hit.until > now;
    const stale = !fresh && hit !== undefined && parsed !== undefined && hit.until + this.ttlMs > now;
    const wait =
      fresh || stale ? this.throttle.knownBlockedFor(address, name) : await this.throttle.blockedFor(address, name);
    if (wait > 0) throw throttled(wait);
    if (fresh) return hit.principal;
    if (stale) {
      this.refresh(key, hit, parsed, name, secret);
      return hit.principal;
    }
    const principal =
      parsed && secret.length > 0 && secret.length <= 256
        ? await this.check(key, parsed, name, secret).catch(async (err: unknown) => {
            if (err instanceof NoAccountRefusal) await this.throttle.failed(address, name);
            throw err;
          })
        : undefined;
    if (!principal) await this.throttle.failed(address, name);
    return principal;
  }

  /**
   * The principal of a publishable key, or undefined for an unknown or revoked one; a miss counts as a failed
   * sign-in of its address (a key is never guessed, so misses come from scanners and stale pages).
   */
  async verifyPublishable(token: string, address: string): Promise<Principal | undefined> {
    const principal = await this.publishableKeys.get(token, async () => (await keyPrincipal(this.db, token)) ?? null);
    if (principal) return principal;
    const wait = await this.throttle.blockedFor(address, "P-unknown");
    if (wait > 0) throw throttled(wait);
    await this.throttle.failed(address, "P-unknown");
    return undefined;
  }

  /**
   * Forgets every verified credential kept: an account's secret changed somewhere (services.ts hears it), so the
   * old secret is refused at once on every instance instead of until its entry expires.
   */
  forgetCredentials(): void {
    this.generation++;
    this.cache.clear();
    this.headers.clear();
    this.inFlight.clear();
  }

  /** Forgets the publishable keys kept: a key was revoked somewhere (services.ts hears it). */
  forgetPublishableKeys(): void {
    this.publishableKeys.clear();
  }

  /** Checks a kept pair again in the background: kept anew if still right, dropped if not, kept as is on an error. */
  private refresh(
    key: string,
    entry: { principal: Principal; until: number },
    parsed: { role: Role; id: string },
    name: string,
    secret: string,
  ): void {
    if (this.inFlight.has(key)) return;
    this.check(key, parsed, name, secret).then(
      (principal) => {
        if (!principal && this.cache.get(key) === entry) this.cache.delete(key);
      },
      // The database or the lane refused: the pair stays as it was, and the next request tries again.
      () => undefined,
    );
  }

  private async check(
    key: string,
    parsed: { role: Role; id: string },
    name: string,
    secret: string,
  ): Promise<Principal | undefined> {
    const generation = this.generation;
    // A burst of requests with the same new credentials shares one scrypt run.
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.derive(parsed, name, secret).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const principal = await pending;
    // A secret changed while this check ran: its answer may be the old secret's, so it is used once, not kept.
    if (principal && generation === this.generation) {
      if (this.cache.size >= this.maxEntries) this.cache.clear();
      this.cache.set(key, { principal, until: Date.now() + this.ttlMs });
    }
    return principal;
  }

  private async derive(
    parsed: { role: Role; id: string },
    name: string,
    secret: string,
  ): Promise<Principal | undefined> {
    const stored = await findSecretHash(this.db, parsed.role, parsed.id);
    // An unknown account costs the same key derivation as a wrong secret, in the anonymous lane.
    const ok = await verifySecret(
      secret,
      stored === undefined ? undefined : { stored, lane: accountLane(parsed.role, parsed.id) },
    );
    if (!ok || stored === undefined) return undefined;
    // A generated secret stored before this release: from now on checked by digest, without scrypt.
    if (wantsDigest(stored, secret))
      await replaceSecretHash(this.db, parsed.role, parsed.id, stored, withDigest(stored, secret));
    return { ...parsed, name };
  }
}

/** Creates an account or sets a new secret; generates one when none is given. */
export async function provisionAccount(db: Db, role: Role, id: string, secret?: string) {
  if (!ACCOUNT_ID.test(id)) {
    throw new AppError(
      "validation_failed",
      `"${id}" is not a valid id: letters, digits, dots and hyphens, at most 100.`,
    );
  }
  if (secret !== undefined && (secret.length < 8 || secret.length > 256)) {
    throw new AppError("validation_failed", "A secret must be 8 to 256 characters long.");
  }
  const finalSecret = secret ?? generateSecret();
  const stored = id.toLowerCase();
  const hash = secret === undefined ? await hashGeneratedSecret(finalSecret) : await hashSecret(finalSecret);
  // A new secret reaches every instance's verified credentials at commit (services.ts): the old one stops working.
  const created = await inTransaction(db, async (trx) => {
    const created = await upsertAccount(trx, role, stored, hash);
    await announceCacheChange(trx);
    return created;
  });
  return { created, secret: finalSecret, generated: secret === undefined, id: stored };
}
