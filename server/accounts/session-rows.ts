// The rows of people's sessions, the portal's (portal_sessions) and the stations' (station_sessions): one shape,
// each table beside its users (portal/tables.ts, warehouse/tables.ts). What every session table is asked.
import { sql, type Insertable } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Executor } from "../db/transaction.ts";

export type SessionTable = "portal_sessions" | "station_sessions";

export async function insertSession(db: Executor, table: SessionTable, row: Insertable<Database[SessionTable]>) {
  await db.insertInto(table).values(row).execute();
}

export async function deleteSession(db: Executor, table: SessionTable, tokenHash: string): Promise<void> {
  await db.deleteFrom(table).where("token_hash", "=", tokenHash).execute();
}

/** Sessions of a user whose password or role changed end with it; `except`: the session that changed it. */
export async function deleteSessionsOf(db: Executor, table: SessionTable, userId: string, except?: string) {
  let del = db.deleteFrom(table).where("user_id", "=", userId);
  if (except !== undefined) del = del.where("token_hash", "<>", except);
  await del.execute();
}

/** Housekeeping: expired sessions, a batch at a time. */
export async function deleteExpiredSessions(db: Executor, table: SessionTable, batch: number): Promise<number> {
  const r = await db
    .deleteFrom(table)
    .where("token_hash", "in", (eb) =>
      eb
        .selectFrom(table)
        .select("token_hash")
        .where("expires_at", "<=", sql<Date>`now()`)
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
