import type { Transaction } from "kysely";
import type { Db } from "./database.ts";
import type { Database } from "./schema.ts";

export type Tx = Transaction<Database>;
/** What a query function runs on: the database, or a transaction the caller opened. */
export type Executor = Db | Tx;

export function inTransaction<T>(db: Db, fn: (trx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}
