// Portal users: people who sign in to the merchant portal for one merchant. Passwords are hashed like API
// secrets (accounts/secrets.ts); emails are kept in lower case and are unique within a merchant: one person
// may serve several shops under one address, and no merchant learns which addresses another one has.
import type {
  DeletedResult,
  PortalPasswordReset,
  PortalUser,
  PortalUserCreate,
  PortalUserList,
  PortalUserUpdate,
} from "../../generated/api.ts";
import { ACCOUNT_ID, portalSessionOf, type Principal } from "../accounts/domain.ts";
import { normalEmail, personProblems } from "../accounts/people.ts";
import { accountLane } from "../accounts/derivations.ts";
import { hashSecret } from "../accounts/secrets.ts";
import { findSecretHash } from "../accounts/db.ts";
import type { Db } from "../db/database.ts";
import { CONTRACT_COMMAND } from "../db/migrate.ts";
import { inTransaction, type Executor, type Tx } from "../db/transaction.ts";
import { AppError, invalid, notFound, type ErrorDetail } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";
import type { PortalUserRole } from "./tables.ts";

export const MAX_USERS_PER_MERCHANT = 100;

export function userToWire(
  r: Pick<q.PortalUserRow, "id" | "email" | "role" | "merchant_id" | "created_at">,
): PortalUser {
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    merchant_id: r.merchant_id,
    created_at: formatTimestamp(r.created_at),
  };
}

/** Only the merchant itself (HTTP Basic) and its portal admins manage portal users. */
function checkMayManage(principal: Principal): void {
  const session = portalSessionOf(principal);
  if (session && session.userRole !== "admin") {
    throw new AppError("access_denied", "Only a portal admin may manage portal users.");
  }
}

export async function listPortalUsers(db: Executor, principal: Principal): Promise<PortalUserList> {
  checkMayManage(principal);
  return { items: (await q.listUsers(db, principal.id)).map(userToWire) };
}

const taken = () =>
  new AppError("conflict", "Your merchant has a portal user with this email already.", [
    { path: "/body/email", message: "already taken", code: "unique" },
  ]);
// Until the operator's contract step, another merchant's address fails the insert: say only what to wait for.
const upgradePending = () =>
  new AppError(
    "conflict",
    `This email cannot be used for a new portal user until the service operator finishes the current upgrade (${CONTRACT_COMMAND}). Try again later.`,
    [{ path: "/body/email", message: "not available until the upgrade is finished", code: "unique" }],
  );
const full = () => new AppError("conflict", `A merchant may have at most ${MAX_USERS_PER_MERCHANT} portal users.`);

/**
 * Checks the limit and the address before deriving the key (a create that fails must not cost one, nor hold a
 * transaction open while it runs), and again atomically at the insert, for creates running side by side.
 */
async function insertNewUser(db: Db, merchantId: string, email: string, password: string, role: PortalUserRole) {
  if ((await q.countUsers(db, merchantId)) >= MAX_USERS_PER_MERCHANT) throw full();
  if (await q.findUser(db, merchantId, email)) throw taken();
  if (await q.emailHeldByGlobalKey(db, email)) throw upgradePending();
  const now = new Date();
  const row = {
    id: newId(now.getTime()),
    merchant_id: merchantId,
    email,
    // In the merchant's own lane: a merchant creating users queues behind itself, not before others.
    password_hash: await hashSecret(password, accountLane("merchant", merchantId)),
    role,
    created_at: now,
  };
  const outcome = await inTransaction(db, (trx) => q.insertUserWithinLimit(trx, row, MAX_USERS_PER_MERCHANT)).catch(
    (err: unknown) => {
      if (q.isGlobalEmailTaken(err)) throw upgradePending();
      throw err;
    },
  );
  if (outcome === "full") throw full();
  if (outcome === "taken") throw taken();
  return row;
}

export async function createPortalUser(db: Db, principal: Principal, input: PortalUserCreate): Promise<PortalUser> {
  checkMayManage(principal);
  return userToWire(await insertNewUser(db, principal.id, normalEmail(input.email), input.password, input.role));
}

// Another merchant's user is the same 404 as an id no user has.
const noSuchUser = () => notFound("Portal user");
const lastAdmin = (path: string, message: string) =>
  new AppError("conflict", "This is your merchant's last portal admin; make another user an admin first.", [
    { path, message, code: "last_admin" },
  ]);

/**
 * Removes a user of the merchant; its sessions end with it (the cookie is looked up on every request, on every
 * instance: nothing is cached to forget). Never the merchant's last admin (409); the admins are locked first,
 * so that two removals side by side cannot take away the last two (db.ts lockUserAndAdmins).
 */
export async function deletePortalUser(trx: Tx, principal: Principal, userId: string): Promise<DeletedResult> {
  checkMayManage(principal);
  const { user, admins } = await q.lockUserAndAdmins(trx, principal.id, userId);
  if (!user) throw noSuchUser();
  if (user.role === "admin" && admins <= 1) throw lastAdmin("/params/user_id", "the last admin cannot be removed");
  await q.deleteSessionsOf(trx, user.id);
  await q.deleteUser(trx, principal.id, user.id);
  return { success: true, id: user.id };
}

/** A user's new role; its sessions end when it changes. Never the merchant's last admin made staff (409). */
export async function updatePortalUser(
  trx: Tx,
  principal: Principal,
  userId: string,
  input: PortalUserUpdate,
): Promise<PortalUser> {
  checkMayManage(principal);
  const { user, admins } = await q.lockUserAndAdmins(trx, principal.id, userId);
  if (!user) throw noSuchUser();
  if (user.role === input.role) return userToWire(user);
  if (user.role === "admin" && admins <= 1) throw lastAdmin("/body/role", "the last admin cannot be made staff");
  await q.setUserRole(trx, principal.id, user.id, input.role);
  await q.deleteSessionsOf(trx, user.id);
  return userToWire({ ...user, role: input.role });
}

/**
 * A temporary password for a user who forgot theirs (no mail: the admin hands it over), which the user must
 * change at the next sign-in; its sessions end. The key is derived outside the transaction, after the user was
 * found (an unknown id costs none).
 */
export async function resetPortalUserPassword(
  db: Db,
  principal: Principal,
  userId: string,
  input: PortalPasswordReset,
): Promise<PortalUser> {
  checkMayManage(principal);
  const user = await q.findUserById(db, principal.id, userId);
  if (!user) throw noSuchUser();
  const hash = await hashSecret(input.password, accountLane("merchant", principal.id));
  const done = await inTransaction(db, async (trx) => {
    if (!(await q.setUserPassword(trx, principal.id, user.id, hash, true))) return false;
    await q.deleteSessionsOf(trx, user.id);
    return true;
  });
  // Removed while the key was derived.
  if (!done) throw noSuchUser();
  return userToWire(user);
}

/**
 * The operator CLI's `portal-user create`: creates the user (an admin unless `role` says otherwise), or gives
 * an existing user of the merchant a new password, and a new role only when `role` is given (its sessions
 * end). Checks what the API's validator checks for the API.
 */
export async function provisionPortalUser(
  db: Db,
  merchantId: string,
  email: string,
  password: string,
  role?: PortalUserRole,
) {
  const merchant = merchantId.toLowerCase();
  const address = normalEmail(email);
  const problems: ErrorDetail[] = [];
  if (!ACCOUNT_ID.test(merchant))
    problems.push({ path: "merchant_id", message: "letters, digits, dots and hyphens, at most 100", code: "pattern" });
  problems.push(...personProblems(address, password));
  if (problems.length) throw invalid(problems, "The portal user is not valid.");
  if ((await findSecretHash(db, "merchant", merchant)) === undefined)
    throw new AppError("not_found", `There is no merchant ${merchant}: create it first (merchant create).`);
  const existing = await q.findUser(db, merchant, address);
  if (existing) {
    const hash = await hashSecret(password);
    // The API's rules hold for the operator too: never the last admin made staff (the admins locked, as
    // updatePortalUser does); the password set here is the user's own (no change asked at the next sign-in).
    const updated = await inTransaction(db, async (trx) => {
      const { user, admins } = await q.lockUserAndAdmins(trx, merchant, existing.id);
      if (!user) return undefined;
      if (role && role !== user.role && user.role === "admin" && admins <= 1)
        throw lastAdmin("role", "the last admin cannot be made staff");
      await q.updateUserPassword(trx, merchant, address, hash, role);
      await q.deleteSessionsOf(trx, user.id);
      return { created: false, id: user.id, email: address, role: role ?? user.role };
    });
    if (updated) return updated;
  }
  const row = await insertNewUser(db, merchant, address, password, role ?? "admin");
  return { created: true, id: row.id, email: address, role: row.role };
}
