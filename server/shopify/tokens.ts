// Shopify callback tokens: the secret part of the URL a shop's carrier service calls for rates. Created, listed
// and revoked like publishable keys; unlike them, secret: shown once, stored as a hash, and with an optional
// Shopify app secret stored sealed, which checks each request's signature.
import { createHash, randomInt } from "node:crypto";
import type {
  CarrierServiceToken,
  CarrierServiceTokenCreate,
  CarrierServiceTokenList,
  CarrierServiceTokenWithSecret,
} from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import { sealedFor } from "../secrets/at-rest.ts";
import type { MainKeys } from "../secrets/main-keys.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";

/** Working tokens per merchant: one per shop and a spare for a change-over. */
export const MAX_WORKING_TOKENS = 20;
export const DEFAULT_PICKUP_RATES = 3;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** `cs_` and 32 characters of 62: 190 bits, never guessed. */
function generateToken(): string {
  let s = "cs_";
  for (let i = 0; i < 32; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}
export const TOKEN_PATTERN = /^cs_[A-Za-z0-9]{32}$/;
const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");
const sealContext = (id: string) => sealedFor("carrier_service_tokens", id);

/** The callback's path after the base URL. */
export const callbackPath = (token: string) => `/shopify/carrier_service/${token}`;

type Row = NonNullable<Awaited<ReturnType<typeof q.findToken>>>;
const toWire = (r: Row): CarrierServiceToken => ({
  id: r.id,
  name: r.name,
  token_hint: r.token_hint,
  pickup_rates: r.pickup_rates,
  tag_properties: r.tag_properties,
  has_app_secret: r.app_secret_sealed !== null,
  created_at: formatTimestamp(r.created_at),
  revoked_at: r.revoked_at ? formatTimestamp(r.revoked_at) : null,
});

export async function createToken(
  trx: Tx,
  merchant: Principal,
  input: CarrierServiceTokenCreate,
  keys: MainKeys,
): Promise<CarrierServiceTokenWithSecret> {
  await q.lockMerchantTokens(trx, merchant.id);
  if ((await q.countWorkingTokens(trx, merchant.id)) >= MAX_WORKING_TOKENS) {
    throw new AppError("conflict", `At most ${MAX_WORKING_TOKENS} callback tokens work at once: revoke one first.`);
  }
  const now = new Date();
  const id = newId(now.getTime());
  const token = generateToken();
  await q.insertToken(trx, {
    id,
    merchant_id: merchant.id,
    token_sha256: sha256(token),
    token_hint: token.slice(0, 7),
    name: input.name ?? "",
    pickup_rates: input.pickup_rates ?? DEFAULT_PICKUP_RATES,
    tag_properties: input.tag_properties ?? [],
    app_secret_sealed: input.app_secret ? keys.seal(input.app_secret, sealContext(id)) : null,
    created_at: now,
  });
  return { ...toWire((await q.findToken(trx, merchant.id, id))!), token, callback_url: callbackPath(token) };
}

export async function listTokens(db: Executor, merchant: Principal): Promise<CarrierServiceTokenList> {
  return { items: (await q.listTokens(db, merchant.id)).map(toWire) };
}

export async function revokeToken(trx: Tx, merchant: Principal, id: string): Promise<CarrierServiceToken> {
  if (!(await q.findToken(trx, merchant.id, id))) throw notFound("Callback token");
  await q.revokeToken(trx, merchant.id, id, new Date());
  return toWire((await q.findToken(trx, merchant.id, id))!);
}

/** What a rate request made with a working token needs: its merchant, its settings and its app secret. */
export interface WorkingToken {
  merchantId: string;
  pickupRates: number;
  tagProperties: readonly string[];
  appSecret: string | null;
}

/** The working token `token` names, or undefined (unknown, revoked, or not a token at all). */
export async function workingToken(db: Executor, token: string, keys: MainKeys): Promise<WorkingToken | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const row = await q.findWorkingToken(db, sha256(token));
  if (!row) return undefined;
  return {
    merchantId: row.merchant_id,
    pickupRates: row.pickup_rates,
    tagProperties: row.tag_properties,
    appSecret: row.app_secret_sealed ? keys.open(row.app_secret_sealed, sealContext(row.id)) : null,
  };
}
