// Warehouse users at a receiving station, as the station's browser is one: signed in over the wire, the
// `station_session` cookie and the session's CSRF token sent with every request.
import { expect } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import type { TestServer } from "./server.ts";

export interface StationUser {
  client: LogisticsClient;
  /** The Cookie header the station's browser sends. */
  cookie: string;
  csrf: string;
  session: components["schemas"]["StationSession"];
}

/** Signs a warehouse user in at a station (201), and a client that sends its cookie and CSRF token. */
export async function stationSignIn(srv: TestServer, email: string, password: string): Promise<StationUser> {
  const r = await srv.client().POST("/station_sessions/_create", { body: { email, password } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  const token = /^station_session=([^;]+);/.exec(r.response.headers.get("set-cookie") ?? "")![1]!;
  const cookie = `station_session=${token}`;
  return { client: cookieClient(srv, cookie, r.data!.csrf_token), cookie, csrf: r.data!.csrf_token, session: r.data! };
}

/** A client that sends these cookies (and, when given, the X-CSRF-Token): one browser's requests. */
export const cookieClient = (srv: TestServer, cookie: string, csrf?: string): LogisticsClient =>
  createLogisticsClient({
    baseUrl: srv.baseUrl,
    headers: { Cookie: cookie, ...(csrf !== undefined && { "X-CSRF-Token": csrf }) },
  });

/** Today's date at the server (UTC), as the warehouse's list filters it. */
export const today = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
