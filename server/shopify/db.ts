// Queries of Shopify callback tokens. Every query of one merchant's tokens filters by its merchant id; the callback
// finds a token by its hash alone (the token is the credential).
import { sql } from "kysely";
import type { Executor } from "../db/transaction.ts";

export interface TokenRow {
  id: string;
  merchant_id: string;
  token_sha256: string;
  token_hint: string;
  name: string;
  pickup_rates: number;
  tag_properties: string[];
  app_secret_sealed: string | null;
  created_at: Date;
}

export async function insertToken(db: Executor, row: TokenRow): Promise<void> {
  await db
    .insertInto("carrier_service_tokens")
    .values({ ...row, tag_properties: JSON.stringify(row.tag_properties) })
    .execute();
}

export const findToken = (db: Executor, merchantId: string, id: string) =>
  db
    .selectFrom("carrier_service_tokens")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();

export const listTokens = (db: Executor, merchantId: string) =>
  db
    .selectFrom("carrier_service_tokens")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1000)
    .execute();

/** Serialises token creation per merchant, so that the count of working tokens holds under concurrent creates. */
export async function lockMerchantTokens(db: Executor, merchantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('carrier_service_tokens'), hashtext(${merchantId}))`.execute(db);
}

export async function countWorkingTokens(db: Executor, merchantId: string): Promise<number> {
  const row = await db
    .selectFrom("carrier_service_tokens")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function revokeToken(db: Executor, merchantId: string, id: string, at: Date): Promise<void> {
  await db
    .updateTable("carrier_service_tokens")
    .set({ revoked_at: at })
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .execute();
}

/** A working token by its hash, with what a rate request needs. */
export const findWorkingToken = (db: Executor, sha256: string) =>
  db
    .selectFrom("carrier_service_tokens")
    .select(["id", "merchant_id", "pickup_rates", "tag_properties", "app_secret_sealed"])
    .where("token_sha256", "=", sha256)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
