import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import type { Executor } from "../db/transaction.ts";

export type Role = "merchant" | "operator";
const table = (role: Role) => (role === "merchant" ? "merchants" : "operators") as "merchants";

export async function findSecretHash(db: Db, role: Role, id: string): Promise<string | undefined> {
  const row = await db.selectFrom(table(role)).select("secret_hash").where("id", "=", id).executeTakeFirst();
  return row?.secret_hash;
}

/** Inserts, or replaces the secret of an existing account. Returns true when it was new. */
export async function upsertAccount(db: Executor, role: Role, id: string, secretHash: string): Promise<boolean> {
  const row = await db
    .insertInto(table(role))
    .values({ id, secret_hash: secretHash })
    .onConflict((oc) => oc.column("id").doUpdateSet({ secret_hash: secretHash }))
    // xmax is 0 only on a freshly inserted row version: tells insert from update in one statement.
    .returning(sql<boolean>`xmax = 0`.as("inserted"))
    .executeTakeFirstOrThrow();
  return row.inserted;
}

/** Replaces the hash only while it is still `from`: a secret rotated meanwhile is not overwritten. */
export async function replaceSecretHash(db: Db, role: Role, id: string, from: string, to: string): Promise<void> {
  await db
    .updateTable(table(role))
    .set({ secret_hash: to })
    .where("id", "=", id)
    .where("secret_hash", "=", from)
    .execute();
}

export async function countMerchants(db: Db): Promise<number> {
  const row = await db
    .selectFrom("merchants")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
