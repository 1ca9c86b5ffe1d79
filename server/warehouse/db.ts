// Warehouse users and their station sessions: every query of these two tables.
import { sql, type Insertable, type Selectable } from "kysely";
import * as rows from "../accounts/session-rows.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import type { WarehouseTables, WarehouseUserRole } from "./tables.ts";

export type WarehouseUserRow = Selectable<WarehouseTables["warehouse_users"]>;

const USER_COLUMNS = ["id", "email", "name", "password_hash", "role", "created_at", "must_change_password"] as const;

export async function findUserByEmail(db: Executor, email: string): Promise<WarehouseUserRow | undefined> {
  return db.selectFrom("warehouse_users").select(USER_COLUMNS).where("email", "=", email).executeTakeFirst();
}

export async function findUserById(db: Executor, id: string): Promise<WarehouseUserRow | undefined> {
  return db.selectFrom("warehouse_users").select(USER_COLUMNS).where("id", "=", id).executeTakeFirst();
}

export async function listUsers(db: Executor, limit: number): Promise<WarehouseUserRow[]> {
  return db.selectFrom("warehouse_users").select(USER_COLUMNS).orderBy("id").limit(limit).execute();
}

/**
 * Inserts a user unless there are `max` already or one with this email: counted and inserted under a lock held to
 * the end of the transaction, so concurrent inserts cannot pass the limit together.
 */
export async function insertUserWithinLimit(
  trx: Tx,
  row: Insertable<WarehouseTables["warehouse_users"]>,
  max: number,
): Promise<"inserted" | "full" | "taken"> {
  await sql`select pg_advisory_xact_lock(hashtext('warehouse_users'))`.execute(trx);
  const { n } = await trx
    .selectFrom("warehouse_users")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(n) >= max) return "full";
  const inserted = await trx
    .insertInto("warehouse_users")
    .values(row)
    .onConflict((oc) => oc.column("email").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted ? "inserted" : "taken";
}

/** The user's row locked to the end of the transaction: a change and a removal of one user queue. */
export async function lockUser(trx: Tx, id: string): Promise<WarehouseUserRow | undefined> {
  return trx.selectFrom("warehouse_users").select(USER_COLUMNS).where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function updateUser(
  db: Executor,
  id: string,
  fields: Partial<{ name: string; role: WarehouseUserRole }>,
): Promise<void> {
  await db.updateTable("warehouse_users").set(fields).where("id", "=", id).execute();
}

export async function deleteUser(db: Executor, id: string): Promise<boolean> {
  const r = await db.deleteFrom("warehouse_users").where("id", "=", id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/**
 * Sets a user's password hash and whether it must be changed at the next sign-in; with `unlessChangedFrom`, only
 * while the stored hash is still that one (a reset in between wins). False when no row changed.
 */
export async function setUserPassword(
  db: Executor,
  id: string,
  passwordHash: string,
  mustChange: boolean,
  unlessChangedFrom?: string,
): Promise<boolean> {
  let update = db
    .updateTable("warehouse_users")
    .set({ password_hash: passwordHash, must_change_password: mustChange })
    .where("id", "=", id);
  if (unlessChangedFrom !== undefined) update = update.where("password_hash", "=", unlessChangedFrom);
  const r = await update.executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** A live session with its user, in one round trip. */
export async function findLiveSession(db: Executor, tokenHash: string) {
  return db
    .selectFrom("station_sessions as s")
    .innerJoin("warehouse_users as u", "u.id", "s.user_id")
    .select([
      "s.token_hash",
      "s.csrf_token",
      "s.expires_at",
      "u.id",
      "u.email",
      "u.name",
      "u.role",
      "u.created_at",
      "u.must_change_password",
    ])
    .where("s.token_hash", "=", tokenHash)
    .where("s.expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
}

// The sessions' rows are written and removed as every session table's (accounts/session-rows.ts).
const TABLE = "station_sessions";
export const insertSession = (db: Executor, row: Insertable<WarehouseTables["station_sessions"]>) =>
  rows.insertSession(db, TABLE, row);
export const deleteSession = (db: Executor, tokenHash: string) => rows.deleteSession(db, TABLE, tokenHash);
export const deleteSessionsOf = (db: Executor, userId: string, except?: string) =>
  rows.deleteSessionsOf(db, TABLE, userId, except);
export const deleteExpiredSessions = (db: Executor, batch: number) => rows.deleteExpiredSessions(db, TABLE, batch);
