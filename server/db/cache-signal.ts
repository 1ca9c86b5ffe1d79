// A committed change that cached answers may depend on (a merchant's prices, the pickup point directory):
// NOTIFY in the change's own transaction, so every instance listening (services.ts) hears it at commit.
import { sql } from "kysely";
import type { Executor } from "./transaction.ts";

export const CACHES_CHANNEL = "caches_changed";

export async function announceCacheChange(db: Executor): Promise<void> {
  await sql`select pg_notify(${CACHES_CHANNEL}, '')`.execute(db);
}
