// Portal sign-in, sign-out and portal users, keyed by operationId.
import type { LoginThrottle } from "../accounts/throttle.ts";
import type { HandlersWith } from "../http/registry.ts";
import { currentSession, sessionCookie, signIn, signOut } from "./sessions.ts";
import { createPortalUser, listPortalUsers } from "./users.ts";

// A session's answers are for the signed-in browser only.
const PRIVATE = { "Cache-Control": "no-store" };

export const portalHandlers = {
  createPortalSession: async (c, { loginThrottle }) => {
    const { token, session } = await signIn(c.db, loginThrottle, c.body, c.client.address);
    return {
      status: 201,
      body: session,
      headers: { ...PRIVATE, "Set-Cookie": sessionCookie(token, c.client.https) },
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
  createPortalUser: async (c) => ({
    status: 201,
    body: await c.transaction((trx) => createPortalUser(trx, c.principal, c.body)),
  }),
  listPortalUsers: async (c) => ({ status: 200, body: await listPortalUsers(c.db, c.principal) }),
} satisfies HandlersWith<{ loginThrottle: LoginThrottle }>;
