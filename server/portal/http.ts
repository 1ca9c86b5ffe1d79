// Portal users, keyed by operationId (signing in is auth's: auth/http.ts).
import type { Handlers } from "../operations.ts";
import { createPortalUser, listPortalUsers } from "./users.ts";

export const portalHandlers = {
  createPortalUser: async (c) => ({
    status: 201,
    body: await createPortalUser(c.db, c.principal, c.body),
  }),
  listPortalUsers: async (c) => ({ status: 200, body: await listPortalUsers(c.db, c.principal) }),
} satisfies Handlers;
