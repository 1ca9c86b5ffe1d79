// Portal sessions: the merchant portal's people signed in with a `portal_session` cookie (session-kit.ts: tokens,
// CSRF, password checks), looked up on every request that carries the cookie (no cache: signing out ends the
// session on every instance at once). The users themselves are the portal's (portal/users.ts); the sessions' rows
// are kept beside them (portal/db.ts).
import type { PortalMerchantChoice, PortalPasswordChange, PortalSession, PortalSignIn } from "../../generated/api.ts";
import { portalSessionOf, type Principal } from "../accounts/domain.ts";
import { accountLane } from "../accounts/derivations.ts";
import type { LoginThrottle } from "../accounts/throttle.ts";
import type { Db } from "../db/database.ts";
import type { Executor } from "../db/transaction.ts";
import * as q from "../portal/db.ts";
import { normalEmail } from "../accounts/people.ts";
import { userToWire } from "../portal/users.ts";
import { AppError } from "../shared/errors.ts";
import { formatTimestamp } from "../shared/time.ts";
import {
  changeOwnPassword as changePassword,
  newSessionTokens,
  passwordOpens,
  sessionCookieHeader,
  tokenDigest,
  wellFormedToken,
} from "./session-kit.ts";

export const SESSION_COOKIE = "portal_session";

/** The principal of a live portal session's cookie value, or undefined (unknown, expired, signed out, malformed). */
export async function sessionPrincipal(db: Executor, token: string): Promise<Principal | undefined> {
  if (!wellFormedToken(token)) return undefined;
  const row = await q.findLiveSession(db, tokenDigest(token));
  if (!row) return undefined;
  return {
    role: "merchant",
    id: row.merchant_id,
    name: `M-${row.merchant_id}`,
    session: {
      cookie: SESSION_COOKIE,
      tokenHash: row.token_hash,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
      user: userToWire(row),
      userRole: row.role,
      mustChangePassword: row.must_change_password,
    },
  };
}

// Sign-in checks the password of every merchant's user with the email (one person, several shops): a bound
// on the key derivations one request costs. Beyond it, the request names its merchant_id.
const MAX_MERCHANTS = 20;

export type SignInOutcome = { token: string; session: PortalSession } | { choice: PortalMerchantChoice };

/**
 * Email and password (and, when the person serves several merchants, merchant_id) to a new session and its
 * cookie token; or the merchants whose user has this email and password, when they are several. Each user's
 * password is checked in the lane of its merchant (session-kit.ts passwordOpens).
 */
export async function signIn(
  db: Executor,
  throttle: LoginThrottle,
  input: PortalSignIn,
  address: string,
): Promise<SignInOutcome> {
  const email = normalEmail(input.email);
  const users = input.merchant_id
    ? [await q.findUser(db, input.merchant_id.toLowerCase(), email)].filter((u) => u !== undefined)
    : await q.findUsersByEmail(db, email, MAX_MERCHANTS);
  const matched = await passwordOpens(
    throttle,
    address,
    `P-${email}`,
    input.password,
    users.map((u) => ({ stored: u.password_hash, lane: accountLane("merchant", u.merchant_id), user: u })),
  );
  const user = matched[0]?.user;
  if (!user) throw new AppError("unauthorized", "Wrong email or password.");
  if (matched.length > 1)
    return {
      choice: {
        success: false,
        code: "merchant_choice_required",
        message:
          "This email and password belong to portal users of several merchants; sign in again naming one of them in merchant_id.",
        merchants: matched.map((m) => ({ merchant_id: m.user.merchant_id })),
      },
    };
  const t = newSessionTokens();
  await q.insertSession(db, {
    token_hash: t.tokenHash,
    user_id: user.id,
    csrf_token: t.csrf,
    created_at: t.createdAt,
    expires_at: t.expiresAt,
  });
  return {
    token: t.token,
    session: {
      user: userToWire(user),
      csrf_token: t.csrf,
      expires_at: formatTimestamp(t.expiresAt),
      must_change_password: user.must_change_password,
    },
  };
}

const portalSession = (principal: Principal) => {
  const s = portalSessionOf(principal);
  if (!s) throw new AppError("unauthorized", "This operation needs a portal session cookie.");
  return s;
};

export function currentSession(principal: Principal): PortalSession {
  const s = portalSession(principal);
  return {
    user: s.user,
    csrf_token: s.csrfToken,
    expires_at: formatTimestamp(s.expiresAt),
    must_change_password: s.mustChangePassword,
  };
}

/** The signed-in user's own new password (session-kit.ts changeOwnPassword); clears the flag of a reset. */
export async function changeOwnPassword(
  db: Db,
  throttle: LoginThrottle,
  principal: Principal,
  input: PortalPasswordChange,
  address: string,
): Promise<PortalSession> {
  const s = portalSession(principal);
  const merchantId = principal.id;
  await changePassword(
    db,
    throttle,
    {
      name: `P-${s.user.email}`,
      lane: accountLane("merchant", merchantId),
      current: async (db) => (await q.findUserById(db, merchantId, s.user.id))?.password_hash,
      replace: async (trx, hash, from) => {
        if (!(await q.setUserPassword(trx, merchantId, s.user.id, hash, false, from))) return false;
        await q.deleteSessionsOf(trx, s.user.id, s.tokenHash);
        return true;
      },
    },
    input,
    address,
  );
  return { ...currentSession(principal), must_change_password: false };
}

export async function signOut(db: Executor, principal: Principal): Promise<void> {
  await q.deleteSession(db, portalSession(principal).tokenHash);
}

export const forgetExpiredSessions = (db: Executor) => q.deleteExpiredSessions(db, 1000);

export const sessionCookie = (token: string, secure: boolean, maxAge?: number) =>
  sessionCookieHeader(SESSION_COOKIE, token, secure, maxAge);
