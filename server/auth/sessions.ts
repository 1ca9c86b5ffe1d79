// Portal sessions: a random token in an HttpOnly cookie, stored as its SHA-256 digest with the user and a
// CSRF token. Looked up on every request that carries the cookie (no cache: signing out ends the session on
// every instance at once). Sign-in shares the failed-login throttle of API secrets. The users themselves
// are the portal's (portal/users.ts); the sessions' rows are kept beside them (portal/db.ts).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { PortalMerchantChoice, PortalPasswordChange, PortalSession, PortalSignIn } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import { accountLane } from "../accounts/derivations.ts";
import { hashSecret, NoAccountRefusal, verifySecret } from "../accounts/secrets.ts";
import type { LoginThrottle } from "../accounts/throttle.ts";
import type { Db } from "../db/database.ts";
import { inTransaction, type Executor } from "../db/transaction.ts";
import * as q from "../portal/db.ts";
import { normalEmail, userToWire } from "../portal/users.ts";
import type { OperationId } from "../shared/contract.ts";
import { AppError, invalid } from "../shared/errors.ts";
import { formatTimestamp } from "../shared/time.ts";

export const SESSION_COOKIE = "portal_session";
export const SESSION_SECONDS = 12 * 60 * 60;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/** The value of one cookie in a Cookie header; undefined when absent. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The principal of a live session's cookie value, or undefined (unknown, expired, signed out, malformed). */
export async function sessionPrincipal(db: Executor, token: string): Promise<Principal | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const row = await q.findLiveSession(db, digest(token));
  if (!row) return undefined;
  return {
    role: "merchant",
    id: row.merchant_id,
    name: `M-${row.merchant_id}`,
    session: {
      tokenHash: row.token_hash,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
      user: userToWire(row),
      userRole: row.role,
      mustChangePassword: row.must_change_password,
    },
  };
}

/** A write made with the cookie carries the session's CSRF token in X-CSRF-Token (a cross-site form cannot). */
export function checkCsrf(principal: Principal, header: string | undefined): void {
  const expected = Buffer.from(principal.session!.csrfToken);
  const sent = Buffer.from(header ?? "");
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
    throw new AppError(
      "access_denied",
      "A write with the portal session needs the session's csrf_token in an X-CSRF-Token header.",
    );
  }
}

// What a session whose password an admin reset may still do: read itself, sign out, and change the password.
const WHILE_PASSWORD_MUST_CHANGE: ReadonlySet<OperationId> = new Set<OperationId>([
  "getPortalSession",
  "deletePortalSession",
  "changePortalPassword",
]);

/** A session that must change its password first may call only the operations above (403 otherwise). */
export function checkPasswordChanged(principal: Principal, operationId: string | undefined): void {
  if (!principal.session?.mustChangePassword) return;
  if (operationId !== undefined && WHILE_PASSWORD_MUST_CHANGE.has(operationId as OperationId)) return;
  throw new AppError(
    "access_denied",
    "Your password was reset by an admin: change it first (POST /portal_sessions/current/_change_password). Until then this session may only read itself and sign out.",
    [{ path: "/session/must_change_password", message: "change your password first", code: "must_change_password" }],
  );
}

const tooManyFailures = (wait: number) =>
  new AppError("rate_limited", `Too many failed sign-ins from this address. Retry in ${wait} s.`, [], {
    "Retry-After": String(wait),
  });
const sessionEnded = () => new AppError("unauthorized", "Your portal session has ended: sign in again.");

// Sign-in checks the password of every merchant's user with the email (one person, several shops): a bound
// on the key derivations one request costs. Beyond it, the request names its merchant_id.
const MAX_MERCHANTS = 20;

export type SignInOutcome = { token: string; session: PortalSession } | { choice: PortalMerchantChoice };

/**
 * Email and password (and, when the person serves several merchants, merchant_id) to a new session and its
 * cookie token; or the merchants whose user has this email and password, when they are several. An unknown
 * email costs the same key derivation as a wrong password; a failure counts against the address in the
 * shared throttle, checked before any derivation.
 */
export async function signIn(
  db: Executor,
  throttle: LoginThrottle,
  input: PortalSignIn,
  address: string,
): Promise<SignInOutcome> {
  const email = normalEmail(input.email);
  const name = `P-${email}`;
  const wait = await throttle.blockedFor(address, name);
  if (wait > 0) throw tooManyFailures(wait);
  const users = input.merchant_id
    ? [await q.findUser(db, input.merchant_id.toLowerCase(), email)].filter((u) => u !== undefined)
    : await q.findUsersByEmail(db, email, MAX_MERCHANTS);
  // Each user in the lane of its merchant; an unknown email in the anonymous lane (accounts/derivations.ts).
  const check = (account: Parameters<typeof verifySecret>[1]) =>
    verifySecret(input.password, account).catch(async (err: unknown) => {
      if (err instanceof NoAccountRefusal) await throttle.failed(address, name);
      throw err;
    });
  if (users.length === 0) await check(undefined);
  const matched = [];
  // One after another: a sign-in holds one place in the derivation queue, not one per merchant.
  for (const user of users)
    if (await check({ stored: user.password_hash, lane: accountLane("merchant", user.merchant_id) }))
      matched.push(user);
  const [user] = matched;
  if (!user) {
    await throttle.failed(address, name);
    throw new AppError("unauthorized", "Wrong email or password.");
  }
  if (matched.length > 1)
    return {
      choice: {
        success: false,
        code: "merchant_choice_required",
        message:
          "This email and password belong to portal users of several merchants; sign in again naming one of them in merchant_id.",
        merchants: matched.map((u) => ({ merchant_id: u.merchant_id })),
      },
    };
  const token = randomBytes(32).toString("base64url");
  const csrf = randomBytes(24).toString("base64url");
  const now = new Date();
  const expires = new Date(now.getTime() + SESSION_SECONDS * 1000);
  await q.insertSession(db, {
    token_hash: digest(token),
    user_id: user.id,
    csrf_token: csrf,
    created_at: now,
    expires_at: expires,
  });
  return {
    token,
    session: {
      user: userToWire(user),
      csrf_token: csrf,
      expires_at: formatTimestamp(expires),
      must_change_password: user.must_change_password,
    },
  };
}

export function currentSession(principal: Principal): PortalSession {
  const s = principal.session;
  if (!s) throw new AppError("unauthorized", "This operation needs a portal session cookie.");
  return {
    user: s.user,
    csrf_token: s.csrfToken,
    expires_at: formatTimestamp(s.expiresAt),
    must_change_password: s.mustChangePassword,
  };
}

/**
 * The signed-in user's own new password. The same password again is refused before any key derivation; a wrong
 * current password counts as a failed sign-in of the user's email from this address (the sign-in throttle's
 * count, so a stolen cookie cannot guess the password faster than the sign-in form). Clears the flag of a
 * reset; the user's other sessions end, this one goes on. Nothing changes on a refusal.
 */
export async function changeOwnPassword(
  db: Db,
  throttle: LoginThrottle,
  principal: Principal,
  input: PortalPasswordChange,
  address: string,
): Promise<PortalSession> {
  const s = principal.session;
  if (!s) throw new AppError("unauthorized", "This operation needs a portal session cookie.");
  if (input.new_password === input.current_password)
    throw invalid(
      [{ path: "/body/new_password", message: "the same as the current password", code: "unchanged" }],
      "The new password must differ from the current one.",
    );
  const name = `P-${s.user.email}`;
  const wait = await throttle.blockedFor(address, name);
  if (wait > 0) throw tooManyFailures(wait);
  const user = await q.findUserById(db, principal.id, s.user.id);
  if (!user) throw sessionEnded();
  const lane = accountLane("merchant", user.merchant_id);
  if (!(await verifySecret(input.current_password, { stored: user.password_hash, lane }))) {
    await throttle.failed(address, name);
    throw invalid(
      [{ path: "/body/current_password", message: "not your current password", code: "wrong_password" }],
      "The current password is wrong.",
    );
  }
  const hash = await hashSecret(input.new_password, lane);
  const changed = await inTransaction(db, async (trx) => {
    // Unless a reset or another change came in between (it ended this session): that one stands.
    if (!(await q.setUserPassword(trx, user.merchant_id, user.id, hash, false, user.password_hash))) return false;
    await q.deleteSessionsOf(trx, user.id, s.tokenHash);
    return true;
  });
  if (!changed) throw sessionEnded();
  return { ...currentSession(principal), must_change_password: false };
}

export async function signOut(db: Executor, principal: Principal): Promise<void> {
  if (!principal.session) throw new AppError("unauthorized", "This operation needs a portal session cookie.");
  await q.deleteSession(db, principal.session.tokenHash);
}

export const forgetExpiredSessions = (db: Executor) => q.deleteExpiredSessions(db, 1000);

/** The Set-Cookie value: HttpOnly, SameSite=Strict, only for the API's path; Secure when the request came over HTTPS. */
export function sessionCookie(token: string, secure: boolean, maxAge = SESSION_SECONDS): string {
  return `${SESSION_COOKIE}=${token}; Path=/2015-01-01; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}
