// Who is signed in at this station: the station session (its own cookie, `station_session`, beside the portal's),
// and the typed client for its CSRF token. The token lives in memory only; a reload asks the session for it again.
import { createLogisticsClient, type LogisticsClient } from "../../../client/index.ts";
import { BASE_PATH } from "../../../generated/base-path.ts";
import type { StationSession, WarehouseInboundShipment } from "../../../generated/api.ts";
import type { S } from "../api.ts";

/** The spec's schemas by their own names (named once, in the portal's api.ts). */
export type { S };

const BASE_URL = `${window.location.origin}${BASE_PATH}`;

/** A client for the session's CSRF token ("-" before sign-in, so a 401 never opens the browser's Basic dialog). */
export function stationClient(csrfToken = "-"): LogisticsClient {
  return createLogisticsClient({ baseUrl: BASE_URL, headers: { "X-CSRF-Token": csrfToken }, timeoutMs: 15_000 });
}

// Not a secret: only whether this browser signed in, so that a signed-out page does not ask (and log a 401).
const HINT = "logistics-station:signed-in";
export const hint = {
  get: () => window.localStorage.getItem(HINT) === "1",
  set: (on: boolean) => (on ? window.localStorage.setItem(HINT, "1") : window.localStorage.removeItem(HINT)),
};

/** The session this browser has, or null (signed out, or it ended). Throws when the service cannot be reached. */
export async function currentSession(): Promise<StationSession | null> {
  if (!hint.get()) return null;
  const r = await stationClient().GET("/station_sessions/current");
  if (r.data) return r.data;
  if (r.response.status === 401 || r.response.status === 403) {
    hint.set(false);
    return null;
  }
  throw new Error(`HTTP ${r.response.status}`);
}

/** Today at the station, as the warehouse's list filters it: the device's own date. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A shipment's lines from an arrivals answer (the merchant's shape), as the warehouse's list shows them. */
export function fromInbound(s: S["InboundShipment"], before: WarehouseInboundShipment): WarehouseInboundShipment {
  return {
    ...before,
    status: s.status,
    lines: s.products.map((p) => ({
      product_id: p.product.id,
      merchants_id: p.product.merchants_id,
      name: p.product.name ?? "",
      gtin: p.product.gtin ?? "",
      qty: p.qty,
      arrivedQty: p.arrivedQty,
    })),
  };
}
