// What every people's session shares, whichever cookie it rides in (the portal's `portal_session`, a receiving
// station's `station_session`): a random token stored as its SHA-256 digest with a CSRF token, the cookie's
// attributes, the CSRF rule of writes, the limits of a session whose password must change, and the password checks
// of signing in and of changing one's own password, counted by the shared failed-login throttle. The portal's
// sessions (sessions.ts) and the station's (warehouse/sessions.ts) are these with their own users.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Principal, SessionOf } from "../accounts/domain.ts";
import { hashSecret, NoAccountRefusal, verifySecret } from "../accounts/secrets.ts";
import type { LoginThrottle } from "../accounts/throttle.ts";
import type { Db } from "../db/database.ts";
import { inTransaction, type Tx } from "../db/transaction.ts";
import type { OperationId } from "../shared/contract.ts";
import { AppError, invalid } from "../shared/errors.ts";
import { BASE_PATH } from "../../generated/base-path.ts";

export type SessionCookie = SessionOf["cookie"];
export const SESSION_SECONDS = 12 * 60 * 60;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const tokenDigest = (token: string) => createHash("sha256").update(token).digest("hex");
/** Whether a cookie's value could be a token this service issued (anything else is looked up nowhere). */
export const wellFormedToken = (token: string) => TOKEN.test(token);

/** A new session's secrets and times: the cookie's token (kept only as its digest), its CSRF token, its expiry. */
export function newSessionTokens(now = new Date()) {
  const token = randomBytes(32).toString("base64url");
  return {
    token,
    tokenHash: tokenDigest(token),
    csrf: randomBytes(24).toString("base64url"),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_SECONDS * 1000),
  };
}

/** The value of one cookie in a Cookie header; undefined when absent. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie value: HttpOnly, SameSite=Strict, only for the API's path; Secure when the request came over HTTPS. */
export function sessionCookieHeader(name: SessionCookie, token: string, secure: boolean, maxAge = SESSION_SECONDS) {
  return `${name}=${token}; Path=${BASE_PATH}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

/** A write made with a session cookie carries the session's CSRF token in X-CSRF-Token (a cross-site form cannot). */
export function checkCsrf(principal: Principal, header: string | undefined): void {
  const expected = Buffer.from(principal.session!.csrfToken);
  const sent = Buffer.from(header ?? "");
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
    throw new AppError(
      "access_denied",
      "A write with a session cookie needs the session's csrf_token in an X-CSRF-Token header.",
    );
  }
}

// What a session whose password was reset may still do: read itself, sign out, and change the password.
const WHILE_PASSWORD_MUST_CHANGE: Record<SessionCookie, ReadonlySet<OperationId>> = {
  portal_session: new Set<OperationId>(["getPortalSession", "deletePortalSession", "changePortalPassword"]),
  station_session: new Set<OperationId>(["getStationSession", "deleteStationSession", "changeStationPassword"]),
};
const CHANGE_PASSWORD: Record<SessionCookie, string> = {
  portal_session: "POST /portal_sessions/current/_change_password",
  station_session: "POST /station_sessions/current/_change_password",
};

/** A session that must change its password first may call only the operations above (403 otherwise). */
export function checkPasswordChanged(principal: Principal, operationId: string | undefined): void {
  const s = principal.session;
  if (!s?.mustChangePassword) return;
  if (operationId !== undefined && WHILE_PASSWORD_MUST_CHANGE[s.cookie].has(operationId as OperationId)) return;
  throw new AppError(
    "access_denied",
    `Your password was reset: change it first (${CHANGE_PASSWORD[s.cookie]}). Until then this session may only read itself and sign out.`,
    [{ path: "/session/must_change_password", message: "change your password first", code: "must_change_password" }],
  );
}

export const tooManyFailures = (wait: number) =>
  new AppError("rate_limited", `Too many failed sign-ins from this address. Retry in ${wait} s.`, [], {
    "Retry-After": String(wait),
  });
export const sessionEnded = () => new AppError("unauthorized", "Your session has ended: sign in again.");

/** A stored password and the derivation lane of its account (accounts/derivations.ts). */
export interface StoredPassword {
  stored: string;
  lane: string;
}

/**
 * Which of `accounts` the password opens, checked one after another (a sign-in holds one place in the
 * derivation queue, not one per account). The throttle is read before any derivation; no account costs the same
 * derivation as a wrong password (in the anonymous lane), and a sign-in that opens none counts as a failure of
 * `name` from `address`.
 */
export async function passwordOpens<A extends StoredPassword>(
  throttle: LoginThrottle,
  address: string,
  name: string,
  password: string,
  accounts: A[],
): Promise<A[]> {
  const wait = await throttle.blockedFor(address, name);
  if (wait > 0) throw tooManyFailures(wait);
  const check = (account: StoredPassword | undefined) =>
    verifySecret(password, account).catch(async (err: unknown) => {
      if (err instanceof NoAccountRefusal) await throttle.failed(address, name);
      throw err;
    });
  if (accounts.length === 0) await check(undefined);
  const matched: A[] = [];
  for (const account of accounts) if (await check(account)) matched.push(account);
  if (matched.length === 0) await throttle.failed(address, name);
  return matched;
}

/** A signed-in person's password as changeOwnPassword needs it. */
export interface PasswordOwner {
  /** The throttle's name of the person (as signing in counts it) and the derivation lane of its account. */
  name: string;
  lane: string;
  /** The stored hash now; undefined when the user is gone. */
  current(db: Db): Promise<string | undefined>;
  /** Stores the new hash (clearing a reset's flag) only while the stored one is still `from`, and ends the user's other sessions; false when it was not `from`. */
  replace(trx: Tx, hash: string, from: string): Promise<boolean>;
}

/**
 * The signed-in person's own new password. The same password again is refused before any key derivation; a wrong
 * current password counts as a failed sign-in of the person from this address (so a stolen cookie cannot guess the
 * password faster than the sign-in form). Nothing changes on a refusal; a reset or another change that came in
 * between wins (this session has ended then).
 */
export async function changeOwnPassword(
  db: Db,
  throttle: LoginThrottle,
  owner: PasswordOwner,
  input: { current_password: string; new_password: string },
  address: string,
): Promise<void> {
  const wait = await throttle.blockedFor(address, owner.name);
  if (wait > 0) throw tooManyFailures(wait);
  const stored = await owner.current(db);
  if (stored === undefined) throw sessionEnded();
  if (!(await verifySecret(input.current_password, { stored, lane: owner.lane }))) {
    await throttle.failed(address, owner.name);
    throw invalid(
      [{ path: "/body/current_password", message: "not your current password", code: "wrong_password" }],
      "The current password is wrong.",
    );
  }
  const hash = await hashSecret(input.new_password, owner.lane);
  if (!(await inTransaction(db, (trx) => owner.replace(trx, hash, stored)))) throw sessionEnded();
}
