// Portal users, keyed by operationId (signing in is auth's: auth/http.ts).
import type { Handlers } from "../operations.ts";
import {
  createPortalUser,
  deletePortalUser,
  listPortalUsers,
  resetPortalUserPassword,
  updatePortalUser,
} from "./users.ts";

export const portalHandlers = {
  createPortalUser: async (c) => ({
    status: 201,
    body: await createPortalUser(c.db, c.principal, c.body),
  }),
  listPortalUsers: async (c) => ({ status: 200, body: await listPortalUsers(c.db, c.principal) }),
  updatePortalUser: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => updatePortalUser(trx, c.principal, c.path.user_id, c.body)),
  }),
  deletePortalUser: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => deletePortalUser(trx, c.principal, c.path.user_id)),
  }),
  resetPortalUserPassword: async (c) => ({
    status: 200,
    body: await resetPortalUserPassword(c.db, c.principal, c.path.user_id, c.body),
  }),
} satisfies Handlers;
