// Warehouse users and station sessions, keyed by operationId. Roles were checked from the spec's security (the
// `W-...` credentials, or a supervisor's station session, manage users).
import type { LoginThrottle } from "../accounts/throttle.ts";
import type { HandlersWith } from "../operations.ts";
import {
  changeStationPassword,
  currentStationSession,
  signInStation,
  signOutStation,
  stationCookie,
} from "./sessions.ts";
import {
  createWarehouseUser,
  deleteWarehouseUser,
  listWarehouseUsers,
  resetWarehouseUserPassword,
  updateWarehouseUser,
} from "./users.ts";

// A session's answers are for the signed-in browser only.
const PRIVATE = { "Cache-Control": "no-store" };

export const warehouseHandlers = {
  createWarehouseUser: async (c) => ({ status: 201, body: await createWarehouseUser(c.db, c.body) }),
  listWarehouseUsers: async (c) => ({ status: 200, body: await listWarehouseUsers(c.db) }),
  updateWarehouseUser: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => updateWarehouseUser(trx, c.path.warehouse_user_id, c.body)),
  }),
  deleteWarehouseUser: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => deleteWarehouseUser(trx, c.path.warehouse_user_id)),
  }),
  resetWarehouseUserPassword: async (c) => ({
    status: 200,
    body: await resetWarehouseUserPassword(c.db, c.path.warehouse_user_id, c.body),
  }),
  createStationSession: async (c, { loginThrottle }) => {
    const { token, session } = await signInStation(c.db, loginThrottle, c.body, c.client.address);
    return { status: 201, body: session, headers: { ...PRIVATE, "Set-Cookie": stationCookie(token, c.client.https) } };
  },
  getStationSession: async (c) => ({ status: 200, body: currentStationSession(c.principal), headers: PRIVATE }),
  deleteStationSession: async (c) => {
    await signOutStation(c.db, c.principal);
    return {
      status: 200,
      body: { success: true },
      headers: { ...PRIVATE, "Set-Cookie": stationCookie("", c.client.https, 0) },
    };
  },
  changeStationPassword: async (c, { loginThrottle }) => ({
    status: 200,
    body: await changeStationPassword(c.db, loginThrottle, c.principal, c.body, c.client.address),
    headers: PRIVATE,
  }),
} satisfies HandlersWith<{ loginThrottle: LoginThrottle }>;
