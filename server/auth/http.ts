// Portal sign-in, sign-out and one's own password (the portal_sessions operations), keyed by operationId.
import type { LoginThrottle } from "../accounts/throttle.ts";
import type { HandlersWith, ValueRules } from "../operations.ts";
import { newPasswordProblems } from "./input-checks.ts";
import { changeOwnPassword, currentSession, sessionCookie, signIn, signOut } from "./sessions.ts";

// A session's answers are for the signed-in browser only.
const PRIVATE = { "Cache-Control": "no-store" };

export const sessionHandlers = {
  createPortalSession: async (c, { loginThrottle }) => {
    const outcome = await signIn(c.db, loginThrottle, c.body, c.client.address);
    if ("choice" in outcome) return { status: 300, body: outcome.choice, headers: PRIVATE };
    return {
      status: 201,
      body: outcome.session,
      headers: { ...PRIVATE, "Set-Cookie": sessionCookie(outcome.token, c.client.https) },
    };
  },
  getPortalSession: async (c) => ({ status: 200, body: currentSession(c.principal), headers: PRIVATE }),
  deletePortalSession: async (c) => {
    await signOut(c.db, c.principal);
    return {
      status: 200,
      body: { success: true },
      headers: { ...PRIVATE, "Set-Cookie": sessionCookie("", c.client.https, 0) },
    };
  },
  changePortalPassword: async (c, { loginThrottle }) => ({
    status: 200,
    body: await changeOwnPassword(c.db, loginThrottle, c.principal, c.body, c.client.address),
    headers: PRIVATE,
  }),
} satisfies HandlersWith<{ loginThrottle: LoginThrottle }>;

/** The value rules of one's own password change, the portal's and the station's (run by the request validator). */
export const passwordValueRules = {
  changePortalPassword: ({ body }) => newPasswordProblems(body),
  changeStationPassword: ({ body }) => newPasswordProblems(body),
} satisfies ValueRules;
