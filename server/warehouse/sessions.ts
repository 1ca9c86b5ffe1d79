// Station sessions: a warehouse user signed in at a receiving station, in a `station_session` cookie of its own
// (so a portal tab and a station tab on one origin never overwrite each other), with everything else as the
// portal's sessions have it (auth/session-kit.ts: tokens, CSRF, password checks and the shared throttle).
import type { PortalPasswordChange, StationSession, StationSignIn } from "../../generated/api.ts";
import { stationSessionOf, type Principal, type StationSessionOf } from "../accounts/domain.ts";
import { normalEmail } from "../accounts/people.ts";
import type { LoginThrottle } from "../accounts/throttle.ts";
import {
  changeOwnPassword,
  newSessionTokens,
  passwordOpens,
  sessionCookieHeader,
  tokenDigest,
  wellFormedToken,
} from "../auth/session-kit.ts";
import type { Db } from "../db/database.ts";
import type { Executor } from "../db/transaction.ts";
import { AppError } from "../shared/errors.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";
import { userToWire, WAREHOUSE_LANE } from "./users.ts";

export const STATION_COOKIE = "station_session";

/** A warehouse user's name in limits, logs, idempotency keys and the status history (S- for station). */
export const stationPrincipalName = (userId: string) => `S-${userId}`;

/**
 * The principal of a live station session's cookie value, or undefined (unknown, expired, signed out, malformed):
 * a warehouse principal (role `operator`) whose session names the person and the role.
 */
export async function stationPrincipal(db: Executor, token: string): Promise<Principal | undefined> {
  if (!wellFormedToken(token)) return undefined;
  const row = await q.findLiveSession(db, tokenDigest(token));
  if (!row) return undefined;
  return {
    role: "operator",
    id: row.id,
    name: stationPrincipalName(row.id),
    session: {
      cookie: STATION_COOKIE,
      tokenHash: row.token_hash,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
      user: userToWire(row),
      userRole: row.role,
      mustChangePassword: row.must_change_password,
    },
  };
}

const throttleName = (email: string) => `S-${email}`;

/** Email and password to a new station session and its cookie token; a wrong one is 401 and counts as a failure. */
export async function signInStation(
  db: Executor,
  throttle: LoginThrottle,
  input: StationSignIn,
  address: string,
): Promise<{ token: string; session: StationSession }> {
  const email = normalEmail(input.email);
  const user = await q.findUserByEmail(db, email);
  const [opened] = await passwordOpens(
    throttle,
    address,
    throttleName(email),
    input.password,
    user ? [{ stored: user.password_hash, lane: WAREHOUSE_LANE, user }] : [],
  );
  if (!opened) throw new AppError("unauthorized", "Wrong email or password.");
  const t = newSessionTokens();
  await q.insertSession(db, {
    token_hash: t.tokenHash,
    user_id: opened.user.id,
    csrf_token: t.csrf,
    created_at: t.createdAt,
    expires_at: t.expiresAt,
  });
  return {
    token: t.token,
    session: {
      user: userToWire(opened.user),
      csrf_token: t.csrf,
      expires_at: formatTimestamp(t.expiresAt),
      must_change_password: opened.user.must_change_password,
    },
  };
}

const stationSession = (principal: Principal): StationSessionOf => {
  const s = stationSessionOf(principal);
  if (!s) throw new AppError("unauthorized", "This operation needs a station session cookie.");
  return s;
};

export function currentStationSession(principal: Principal): StationSession {
  const s = stationSession(principal);
  return {
    user: s.user,
    csrf_token: s.csrfToken,
    expires_at: formatTimestamp(s.expiresAt),
    must_change_password: s.mustChangePassword,
  };
}

/** The signed-in warehouse user's own new password (session-kit.ts changeOwnPassword); clears a reset's flag. */
export async function changeStationPassword(
  db: Db,
  throttle: LoginThrottle,
  principal: Principal,
  input: PortalPasswordChange,
  address: string,
): Promise<StationSession> {
  const s = stationSession(principal);
  await changeOwnPassword(
    db,
    throttle,
    {
      name: throttleName(s.user.email),
      lane: WAREHOUSE_LANE,
      current: async (db) => (await q.findUserById(db, s.user.id))?.password_hash,
      replace: async (trx, hash, from) => {
        if (!(await q.setUserPassword(trx, s.user.id, hash, false, from))) return false;
        await q.deleteSessionsOf(trx, s.user.id, s.tokenHash);
        return true;
      },
    },
    input,
    address,
  );
  return { ...currentStationSession(principal), must_change_password: false };
}

export async function signOutStation(db: Executor, principal: Principal): Promise<void> {
  await q.deleteSession(db, stationSession(principal).tokenHash);
}

export const forgetExpiredStationSessions = (db: Executor) => q.deleteExpiredSessions(db, 1000);

export const stationCookie = (token: string, secure: boolean, maxAge?: number) =>
  sessionCookieHeader(STATION_COOKIE, token, secure, maxAge);
