// Publishable keys: a merchant's keys for its checkout page in a browser. What a request made with one may do is
// decided by the spec's security requirements (auth/authorize.ts) and its origins (http/cors.ts).
import { randomInt } from "node:crypto";
import type { PublishableKey, PublishableKeyCreate, PublishableKeyList } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";

/** Working keys per merchant: enough for every shop and test site, few enough to read in the portal. */
export const MAX_WORKING_KEYS = 50;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** `pk_` and 32 characters of 62: 190 bits, never guessed. */
export function generateToken(): string {
  let s = "pk_";
  for (let i = 0; i < 32; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}
export const TOKEN_PATTERN = /^pk_[A-Za-z0-9]{32}$/;

type Row = NonNullable<Awaited<ReturnType<typeof q.findKey>>>;
const toWire = (r: Row): PublishableKey => ({
  id: r.id,
  key: r.token,
  name: r.name,
  origins: r.origins,
  created_at: formatTimestamp(r.created_at),
  revoked_at: r.revoked_at ? formatTimestamp(r.revoked_at) : null,
});

export async function createKey(trx: Tx, merchant: Principal, input: PublishableKeyCreate): Promise<PublishableKey> {
  await q.lockMerchantKeys(trx, merchant.id);
  if ((await q.countWorkingKeys(trx, merchant.id)) >= MAX_WORKING_KEYS) {
    throw new AppError("conflict", `At most ${MAX_WORKING_KEYS} publishable keys work at once: revoke one first.`);
  }
  const now = new Date();
  const id = newId(now.getTime());
  await q.insertKey(trx, {
    id,
    merchant_id: merchant.id,
    token: generateToken(),
    name: input.name ?? "",
    origins: input.origins,
    created_at: now,
  });
  return toWire((await q.findKey(trx, merchant.id, id))!);
}

export async function listKeys(db: Executor, merchant: Principal): Promise<PublishableKeyList> {
  return { items: (await q.listKeys(db, merchant.id)).map(toWire) };
}

export async function revokeKey(trx: Tx, merchant: Principal, id: string): Promise<PublishableKey> {
  if (!(await q.findKey(trx, merchant.id, id))) throw notFound("Publishable key");
  await q.revokeKey(trx, merchant.id, id, new Date());
  return toWire((await q.findKey(trx, merchant.id, id))!);
}

/** What a request made with a publishable key carries (Principal.publishable). */
export interface PublishableOf {
  keyId: string;
  origins: readonly string[];
}

/** The principal of a working key's token, or undefined (unknown or revoked). */
export async function keyPrincipal(db: Executor, token: string): Promise<Principal | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const row = await q.findWorkingKeyByToken(db, token);
  if (!row) return undefined;
  return {
    role: "merchant",
    id: row.merchant_id,
    name: `P-${row.id}`,
    publishable: { keyId: row.id, origins: row.origins },
  };
}
