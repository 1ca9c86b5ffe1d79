// Queries of publishable keys. Every query of one merchant's keys filters by its merchant id.
import { sql } from "kysely";
import type { Executor } from "../db/transaction.ts";

/** Adds a key; `keepExisting`: a key with the same token (the demo's, seeded again) is left as it is. */
export async function insertKey(
  db: Executor,
  row: { id: string; merchant_id: string; token: string; name: string; origins: string[]; created_at: Date },
  keepExisting = false,
) {
  const insert = db.insertInto("publishable_keys").values({ ...row, origins: JSON.stringify(row.origins) });
  await (keepExisting ? insert.onConflict((oc) => oc.column("token").doNothing()) : insert).execute();
}

export const findKey = (db: Executor, merchantId: string, id: string) =>
  db
    .selectFrom("publishable_keys")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();

export const listKeys = (db: Executor, merchantId: string) =>
  db
    .selectFrom("publishable_keys")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1000)
    .execute();

/** Serialises key creation per merchant, so that the count of working keys holds under concurrent creates. */
export async function lockMerchantKeys(db: Executor, merchantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('publishable_keys'), hashtext(${merchantId}))`.execute(db);
}

export async function countWorkingKeys(db: Executor, merchantId: string): Promise<number> {
  const row = await db
    .selectFrom("publishable_keys")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function revokeKey(db: Executor, merchantId: string, id: string, at: Date): Promise<void> {
  await db
    .updateTable("publishable_keys")
    .set({ revoked_at: at })
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .execute();
}

/** A working key by its token, with what a request made with it needs. */
export const findWorkingKeyByToken = (db: Executor, token: string) =>
  db
    .selectFrom("publishable_keys")
    .select(["id", "merchant_id", "origins"])
    .where("token", "=", token)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
