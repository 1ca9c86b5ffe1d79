// Portal users: people who sign in to the merchant portal for one merchant. Passwords are hashed like API
// secrets (accounts/secrets.ts); emails are kept in lower case and are unique over the service.
import type { PortalUser, PortalUserCreate, PortalUserList } from "../../generated/api.ts";
import { ACCOUNT_ID, type Principal } from "../accounts/domain.ts";
import { hashSecret } from "../accounts/secrets.ts";
import { findSecretHash } from "../accounts/db.ts";
import type { Db } from "../db/database.ts";
import type { Executor } from "../db/transaction.ts";
import { AppError, invalid } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";
import type { PortalUserRole } from "./tables.ts";

export const MAX_USERS_PER_MERCHANT = 100;
const PASSWORD_MIN = 10;
const PASSWORD_MAX = 256;
// What the spec's `format: email` accepts, for the CLI, which the validator does not see.
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{1,63}$/;

export const normalEmail = (email: string) => email.trim().toLowerCase();

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
  if (principal.session && principal.session.userRole !== "admin") {
    throw new AppError("access_denied", "Only a portal admin may manage portal users.");
  }
}

export async function listPortalUsers(db: Executor, principal: Principal): Promise<PortalUserList> {
  checkMayManage(principal);
  return { items: (await q.listUsers(db, principal.id)).map(userToWire) };
}

export async function createPortalUser(
  db: Executor,
  principal: Principal,
  input: PortalUserCreate,
): Promise<PortalUser> {
  checkMayManage(principal);
  if ((await q.countUsers(db, principal.id)) >= MAX_USERS_PER_MERCHANT) {
    throw new AppError("conflict", `A merchant may have at most ${MAX_USERS_PER_MERCHANT} portal users.`);
  }
  const now = new Date();
  const row = {
    id: newId(now.getTime()),
    merchant_id: principal.id,
    email: normalEmail(input.email),
    password_hash: await hashSecret(input.password),
    role: input.role,
    created_at: now,
  };
  if (!(await q.insertUser(db, row))) {
    throw new AppError("conflict", "A portal user with this email exists already.", [
      { path: "/body/email", message: "already taken", code: "unique" },
    ]);
  }
  return userToWire(row);
}

/**
 * The operator CLI's `portal-user create`: creates the user, or gives an existing user of the same merchant
 * a new password and role (its sessions end). Checks what the API's validator checks for the API.
 */
export async function provisionPortalUser(
  db: Db,
  merchantId: string,
  email: string,
  password: string,
  role: PortalUserRole = "admin",
) {
  const merchant = merchantId.toLowerCase();
  const address = normalEmail(email);
  const problems = [];
  if (!ACCOUNT_ID.test(merchant))
    problems.push({ path: "merchant_id", message: "letters, digits, dots and hyphens, at most 100", code: "pattern" });
  if (!EMAIL.test(address) || address.length > 254)
    problems.push({ path: "email", message: "not an email address", code: "format" });
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    problems.push({ path: "password", message: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, code: "length" });
  if (problems.length) throw invalid(problems, "The portal user is not valid.");
  if ((await findSecretHash(db, "merchant", merchant)) === undefined)
    throw new AppError("not_found", `There is no merchant ${merchant}: create it first (merchant create).`);
  const hash = await hashSecret(password);
  const existing = await q.findUserByEmail(db, address);
  if (existing && existing.merchant_id !== merchant)
    throw new AppError("conflict", `${address} is a portal user of another merchant.`);
  if (existing) {
    await q.updateUserPassword(db, merchant, address, hash, role);
    await q.deleteSessionsOf(db, existing.id);
    return { created: false, id: existing.id, email: address };
  }
  const now = new Date();
  const id = newId(now.getTime());
  await q.insertUser(db, { id, merchant_id: merchant, email: address, password_hash: hash, role, created_at: now });
  return { created: true, id, email: address };
}
