import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import type { Tx } from "../db/transaction.ts";

export interface StoredResponse {
  request_hash: string;
  response_status: number;
  response_body: string;
}

/**
 * Claims (principal, key) inside the caller's transaction. A concurrent claim of the same key waits
 * on the unique index until the first transaction ends. Keys older than `ttlHours` are reclaimed.
 * Returns undefined when the claim is ours, else the earlier response.
 */
export async function claimKey(
  trx: Tx,
  principal: string,
  key: string,
  operation: string,
  hash: string,
  ttlHours: number,
): Promise<StoredResponse | undefined> {
  const claimed = await trx
    .insertInto("idempotency_keys")
    .values({ principal, key, operation, request_hash: hash, response_status: 0, response_body: "null" })
    .onConflict((oc) =>
      oc
        .columns(["principal", "key"])
        .doUpdateSet({
          operation,
          request_hash: hash,
          response_status: 0,
          response_body: "null",
          created_at: sql`now()`,
        })
        .where("idempotency_keys.created_at", "<", sql<Date>`now() - make_interval(hours => ${ttlHours})`),
    )
    .returning("key")
    .executeTakeFirst();
  if (claimed) return undefined;
  return trx
    .selectFrom("idempotency_keys")
    .select(["request_hash", "response_status", "response_body"])
    .where("principal", "=", principal)
    .where("key", "=", key)
    .executeTakeFirstOrThrow();
}

export async function storeResponse(
  trx: Tx,
  principal: string,
  key: string,
  status: number,
  bodyJson: string,
): Promise<void> {
  await trx
    .updateTable("idempotency_keys")
    .set({ response_status: status, response_body: bodyJson })
    .where("principal", "=", principal)
    .where("key", "=", key)
    .execute();
}

/** Forgets keys past their lifetime, `batch` rows per statement; returns how many. */
export async function deleteExpiredKeys(db: Db, ttlHours: number, batch = 1000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const res = await sql`
      delete from idempotency_keys where (principal, key) in (
        select principal, key from idempotency_keys where created_at < now() - make_interval(hours => ${ttlHours}) limit ${batch})`.execute(
      db,
    );
    deleted += Number(res.numAffectedRows ?? 0);
    if (Number(res.numAffectedRows ?? 0) < batch) return deleted;
  }
}
