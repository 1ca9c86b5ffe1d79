// Warehouse users: the warehouse's staff, who sign in at a receiving station (sessions.ts) as a `receiver` or a
// `supervisor`. Separate from the merchants' portal users, with the same rules for emails and passwords
// (accounts/people.ts) and the same hashing. Managed by the warehouse's `W-...` credentials and by supervisors;
// the first supervisor comes from the operator's CLI (provisionWarehouseUser).
import type {
  DeletedResult,
  PortalPasswordReset,
  WarehouseUser,
  WarehouseUserCreate,
  WarehouseUserList,
  WarehouseUserUpdate,
} from "../../generated/api.ts";
import { hashSecret } from "../accounts/secrets.ts";
import { normalEmail, personProblems } from "../accounts/people.ts";
import type { Db } from "../db/database.ts";
import { inTransaction, type Executor, type Tx } from "../db/transaction.ts";
import { AppError, invalid, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";
import type { WarehouseUserRole } from "./tables.ts";

export const MAX_WAREHOUSE_USERS = 1000;
const NAME = /^\S(.*\S)?$/;
const NAME_MAX = 100;

/** The derivation lane of every warehouse user's password (accounts/derivations.ts): the warehouse's own. */
export const WAREHOUSE_LANE = "warehouse-users";

export function userToWire(
  r: Pick<q.WarehouseUserRow, "id" | "email" | "name" | "role" | "created_at">,
): WarehouseUser {
  return { id: r.id, email: r.email, name: r.name, role: r.role, created_at: formatTimestamp(r.created_at) };
}

export async function listWarehouseUsers(db: Executor): Promise<WarehouseUserList> {
  return { items: (await q.listUsers(db, MAX_WAREHOUSE_USERS)).map(userToWire) };
}

const taken = (path = "/body/email") =>
  new AppError("conflict", "There is a warehouse user with this email already.", [
    { path, message: "already taken", code: "unique" },
  ]);
const full = () => new AppError("conflict", `There may be at most ${MAX_WAREHOUSE_USERS} warehouse users.`);
const noSuchUser = () => notFound("Warehouse user");

/**
 * Checks the limit and the address before deriving the key (a create that fails must not cost one, nor hold a
 * transaction open while it runs), and again atomically at the insert, for creates running side by side.
 */
async function insertNewUser(db: Db, input: WarehouseUserCreate, emailPath = "/body/email") {
  const email = normalEmail(input.email);
  if (await q.findUserByEmail(db, email)) throw taken(emailPath);
  const now = new Date();
  const row = {
    id: newId(now.getTime()),
    email,
    name: input.name,
    password_hash: await hashSecret(input.password, WAREHOUSE_LANE),
    role: input.role,
    created_at: now,
  };
  const outcome = await inTransaction(db, (trx) => q.insertUserWithinLimit(trx, row, MAX_WAREHOUSE_USERS));
  if (outcome === "full") throw full();
  if (outcome === "taken") throw taken(emailPath);
  return row;
}

export async function createWarehouseUser(db: Db, input: WarehouseUserCreate): Promise<WarehouseUser> {
  return userToWire(await insertNewUser(db, input));
}

/** A user's new name or role; its sessions end when the role changes. Arrivals keep the name they were recorded with. */
export async function updateWarehouseUser(trx: Tx, id: string, input: WarehouseUserUpdate): Promise<WarehouseUser> {
  const user = await q.lockUser(trx, id);
  if (!user) throw noSuchUser();
  const changed = {
    ...(input.name !== undefined && input.name !== user.name && { name: input.name }),
    ...(input.role !== undefined && input.role !== user.role && { role: input.role }),
  };
  if (Object.keys(changed).length === 0) return userToWire(user);
  await q.updateUser(trx, id, changed);
  if (changed.role) await q.deleteSessionsOf(trx, id);
  return userToWire({ ...user, ...changed });
}

/** Removes a user; its sessions end with it (looked up on every request: nothing is cached to forget). */
export async function deleteWarehouseUser(trx: Tx, id: string): Promise<DeletedResult> {
  const user = await q.lockUser(trx, id);
  if (!user) throw noSuchUser();
  await q.deleteSessionsOf(trx, id);
  await q.deleteUser(trx, id);
  return { success: true, id };
}

/**
 * A temporary password for a user who forgot theirs, which the user must change at the next sign-in; its
 * sessions end. The key is derived outside the transaction, after the user was found (an unknown id costs none).
 */
export async function resetWarehouseUserPassword(
  db: Db,
  id: string,
  input: PortalPasswordReset,
): Promise<WarehouseUser> {
  const user = await q.findUserById(db, id);
  if (!user) throw noSuchUser();
  const hash = await hashSecret(input.password, WAREHOUSE_LANE);
  const done = await inTransaction(db, async (trx) => {
    if (!(await q.setUserPassword(trx, id, hash, true))) return false;
    await q.deleteSessionsOf(trx, id);
    return true;
  });
  // Removed while the key was derived.
  if (!done) throw noSuchUser();
  return userToWire(user);
}

/**
 * The operator CLI's `warehouse-user create`: creates the user (a receiver unless `role` says otherwise), or gives
 * an existing one a new password (its own: no change asked at the next sign-in), and a new name or role only when
 * given (its sessions end). Checks what the API's validator checks for the API.
 */
export async function provisionWarehouseUser(
  db: Db,
  email: string,
  password: string,
  opts: { role?: WarehouseUserRole; name?: string } = {},
) {
  const address = normalEmail(email);
  const problems = personProblems(address, password);
  if (opts.name !== undefined && (!NAME.test(opts.name) || opts.name.length > NAME_MAX))
    problems.push({ path: "name", message: `1 to ${NAME_MAX} characters, no spaces at either end`, code: "pattern" });
  if (problems.length) throw invalid(problems, "The warehouse user is not valid.");
  const existing = await q.findUserByEmail(db, address);
  if (existing) {
    const hash = await hashSecret(password, WAREHOUSE_LANE);
    const updated = await inTransaction(db, async (trx) => {
      const user = await q.lockUser(trx, existing.id);
      if (!user) return undefined;
      await q.setUserPassword(trx, user.id, hash, false);
      const changed = { ...(opts.name && { name: opts.name }), ...(opts.role && { role: opts.role }) };
      if (Object.keys(changed).length) await q.updateUser(trx, user.id, changed);
      await q.deleteSessionsOf(trx, user.id);
      return { created: false, ...userToWire({ ...user, ...changed }) };
    });
    if (updated) return updated;
  }
  // A person's name when none is given: the email's local part, which a supervisor may change later.
  const name = opts.name ?? address.slice(0, address.indexOf("@")).slice(0, NAME_MAX);
  const row = await insertNewUser(db, { email: address, name, password, role: opts.role ?? "receiver" }, "email");
  return { created: true, ...userToWire(row) };
}
