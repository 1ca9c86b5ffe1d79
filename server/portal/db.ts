// Portal users and sessions: every query of these two tables.
import { sql, type Insertable, type Selectable } from "kysely";
import * as rows from "../accounts/session-rows.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import type { PortalTables, PortalUserRole } from "./tables.ts";

export type PortalUserRow = Selectable<PortalTables["portal_users"]>;

const USER_COLUMNS = [
  "id",
  "merchant_id",
  "email",
  "password_hash",
  "role",
  "created_at",
  "must_change_password",
] as const;

/** The users with this email, one per merchant at most, in merchant order (sign-in looks over every merchant). */
export async function findUsersByEmail(db: Executor, email: string, limit: number): Promise<PortalUserRow[]> {
  return db
    .selectFrom("portal_users")
    .select(USER_COLUMNS)
    .where("email", "=", email)
    .orderBy("merchant_id")
    .limit(limit)
    .execute();
}

export async function findUser(db: Executor, merchantId: string, email: string): Promise<PortalUserRow | undefined> {
  return db
    .selectFrom("portal_users")
    .select(USER_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("email", "=", email)
    .executeTakeFirst();
}

export async function findUserById(db: Executor, merchantId: string, id: string): Promise<PortalUserRow | undefined> {
  return db
    .selectFrom("portal_users")
    .select(USER_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * For a change that may take away an admin (removing a user, changing a role): locks the merchant's admin rows
 * (in id order, so that two such changes queue rather than deadlock) and then the user's row, to the end of the
 * transaction. A concurrent change waits for the lock and then sees the admins as they are after it committed,
 * so two requests cannot each take away one of the last two admins. `admins`: how many the merchant has.
 */
export async function lockUserAndAdmins(
  trx: Tx,
  merchantId: string,
  id: string,
): Promise<{ user: PortalUserRow | undefined; admins: number }> {
  const admins = await trx
    .selectFrom("portal_users")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("role", "=", "admin")
    .orderBy("id")
    .forUpdate()
    .execute();
  const user = await trx
    .selectFrom("portal_users")
    .select(USER_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .forUpdate()
    .executeTakeFirst();
  return { user, admins: admins.length };
}

export async function deleteUser(db: Executor, merchantId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom("portal_users")
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

export async function setUserRole(db: Executor, merchantId: string, id: string, role: PortalUserRole): Promise<void> {
  await db
    .updateTable("portal_users")
    .set({ role })
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .execute();
}

/**
 * Sets a user's password hash and whether it must be changed at the next sign-in; with `unlessChangedFrom`, only
 * while the stored hash is still that one (a reset in between wins). False when no row changed.
 */
export async function setUserPassword(
  db: Executor,
  merchantId: string,
  id: string,
  passwordHash: string,
  mustChange: boolean,
  unlessChangedFrom?: string,
): Promise<boolean> {
  let update = db
    .updateTable("portal_users")
    .set({ password_hash: passwordHash, must_change_password: mustChange })
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id);
  if (unlessChangedFrom !== undefined) update = update.where("password_hash", "=", unlessChangedFrom);
  const r = await update.executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function listUsers(db: Executor, merchantId: string): Promise<PortalUserRow[]> {
  return db
    .selectFrom("portal_users")
    .select(USER_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .orderBy("id")
    .limit(100)
    .execute();
}

export async function countUsers(db: Executor, merchantId: string): Promise<number> {
  const row = await db
    .selectFrom("portal_users")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Inserts a user unless its merchant has `max` users already or one with this email: the merchant's users are
 * counted and the row inserted under a per-merchant lock held to the end of the transaction, so concurrent
 * inserts cannot pass the limit together.
 */
export async function insertUserWithinLimit(
  trx: Tx,
  row: {
    id: string;
    merchant_id: string;
    email: string;
    password_hash: string;
    role: PortalUserRole;
    created_at: Date;
  },
  max: number,
): Promise<"inserted" | "full" | "taken"> {
  await sql`select pg_advisory_xact_lock(hashtext('portal_users'), hashtext(${row.merchant_id}))`.execute(trx);
  if ((await countUsers(trx, row.merchant_id)) >= max) return "full";
  const inserted = await trx
    .insertInto("portal_users")
    .values(row)
    .onConflict((oc) => oc.columns(["merchant_id", "email"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted ? "inserted" : "taken";
}

// The service-wide unique email of the release before 0011: it stands until contract/0011_drop_global_portal_email
// is applied (`migrate --contract`), and until then refuses an address that another merchant's user has.
const GLOBAL_EMAIL_KEY = "portal_users_email_key";

/** Whether the service-wide unique email stands and some user (of any merchant) has this address. */
export async function emailHeldByGlobalKey(db: Executor, email: string): Promise<boolean> {
  const { rows } = await sql<{ held: boolean }>`
    select exists (select 1 from portal_users where email = ${email})
      and exists (
        select 1 from pg_constraint where conname = ${GLOBAL_EMAIL_KEY} and conrelid = 'portal_users'::regclass
      ) as held`.execute(db);
  return rows[0]!.held;
}

/** Whether an insert failed on the service-wide unique email (a create side by side with another). */
export const isGlobalEmailTaken = (err: unknown) =>
  (err as { code?: string }).code === "23505" && (err as { constraint?: string }).constraint === GLOBAL_EMAIL_KEY;

/** Sets a new password of an existing user, and its role when one is given; false when there is no such user. */
export async function updateUserPassword(
  db: Executor,
  merchantId: string,
  email: string,
  passwordHash: string,
  role: PortalUserRole | undefined,
): Promise<boolean> {
  const r = await db
    .updateTable("portal_users")
    .set({ password_hash: passwordHash, must_change_password: false, ...(role && { role }) })
    .where("email", "=", email)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** A live session with its user, in one round trip. */
export async function findLiveSession(db: Executor, tokenHash: string) {
  return db
    .selectFrom("portal_sessions as s")
    .innerJoin("portal_users as u", "u.id", "s.user_id")
    .select([
      "s.token_hash",
      "s.csrf_token",
      "s.expires_at",
      "u.id",
      "u.merchant_id",
      "u.email",
      "u.role",
      "u.created_at",
      "u.must_change_password",
    ])
    .where("s.token_hash", "=", tokenHash)
    .where("s.expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
}

// The sessions' rows are written and removed as every session table's (accounts/session-rows.ts).
const TABLE = "portal_sessions";
export const insertSession = (db: Executor, row: Insertable<PortalTables["portal_sessions"]>) =>
  rows.insertSession(db, TABLE, row);
export const deleteSession = (db: Executor, tokenHash: string) => rows.deleteSession(db, TABLE, tokenHash);
export const deleteSessionsOf = (db: Executor, userId: string, except?: string) =>
  rows.deleteSessionsOf(db, TABLE, userId, except);
export const deleteExpiredSessions = (db: Executor, batch: number) => rows.deleteExpiredSessions(db, TABLE, batch);
