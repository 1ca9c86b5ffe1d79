import { createHash } from "node:crypto";
import type { Db } from "../db/database.ts";
import { AppError } from "../shared/errors.ts";
import { findSecretHash, upsertAccount, type Role } from "./db.ts";
import { generateSecret, hashSecret, verifySecret } from "./secrets.ts";

export interface Principal {
  role: Role;
  id: string;
  /** Scope for idempotency keys and logs: "M-shop.example.com". */
  name: string;
}

// Merchant ids look like domain names; operator ids follow the same rule.
export const ACCOUNT_ID = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,98}[A-Za-z0-9])?$/;

export function parseUsername(username: string): { role: Role; id: string } | undefined {
  const m = /^([MW])-(.+)$/.exec(username);
  if (!m || !ACCOUNT_ID.test(m[2]!)) return undefined;
  return { role: m[1] === "M" ? "merchant" : "operator", id: m[2]! };
}

/**
 * Verifies Basic credentials. scrypt is deliberately slow, so verified pairs are kept for a short
 * time, keyed by a digest of both parts: a changed secret misses the cache.
 */
export class Authenticator {
  private cache = new Map<string, { principal: Principal; until: number }>();
  private inFlight = new Map<string, Promise<Principal | undefined>>();
  constructor(private db: Db, private ttlMs = 60_000, private maxEntries = 10_000) {}

  async verify(username: string, secret: string): Promise<Principal | undefined> {
    const parsed = parseUsername(username);
    if (!parsed || secret.length === 0 || secret.length > 256) return undefined;
    const key = createHash("sha256").update(username).update("\0").update(secret).digest("base64");
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.principal;
    // A burst of requests with the same new credentials shares one scrypt run.
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.check(parsed, username, secret).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const principal = await pending;
    if (principal) {
      if (this.cache.size >= this.maxEntries) this.cache.clear();
      this.cache.set(key, { principal, until: Date.now() + this.ttlMs });
    }
    return principal;
  }

  private async check(parsed: { role: Role; id: string }, username: string, secret: string): Promise<Principal | undefined> {
    const stored = await findSecretHash(this.db, parsed.role, parsed.id);
    if (!stored || !(await verifySecret(secret, stored))) return undefined;
    return { ...parsed, name: username };
  }
}

/** Creates an account or sets a new secret; generates one when none is given. */
export async function provisionAccount(db: Db, role: Role, id: string, secret?: string) {
  if (!ACCOUNT_ID.test(id)) {
    throw new AppError("validation_failed", `"${id}" is not a valid id: letters, digits, dots and hyphens, at most 100.`);
  }
  if (secret !== undefined && (secret.length < 8 || secret.length > 256)) {
    throw new AppError("validation_failed", "A secret must be 8 to 256 characters long.");
  }
  const finalSecret = secret ?? generateSecret();
  const created = await upsertAccount(db, role, id, await hashSecret(finalSecret));
  return { created, secret: finalSecret, generated: secret === undefined };
}
