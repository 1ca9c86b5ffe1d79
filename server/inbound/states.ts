import type { components } from "../../generated/api.ts";
import { AppError } from "../shared/errors.ts";

export type Status = components["schemas"]["InboundShipmentStatus"];
export type WarehouseTarget = components["schemas"]["InboundStatusChange"]["status"];
export type MerchantAction = components["schemas"]["InboundShipmentAction"];

/**
 * Statuses in which the merchant may still change the announcement. `problem` counts also when the
 * warehouse reopened a processed shipment: reopening makes it open again, and it does not close by
 * itself (only a closing attempt waits for matching quantities), so the warehouse keeps the last word.
 */
export const MODIFIABLE: readonly Status[] = [
  "initial",
  "confirmed",
  "en_route",
  "arrived_at_warehouse",
  "processing",
  "problem",
];
/** Statuses in which goods may still be received. */
export const RECEIVING: readonly Status[] = MODIFIABLE;
/** Statuses the first arrival moves on to `processing`. */
export const BEFORE_PROCESSING: readonly Status[] = ["initial", "confirmed", "en_route", "arrived_at_warehouse"];

/** For each status the warehouse may set, the statuses it may leave for it (the spec's changeInboundShipmentStatus). */
export const WAREHOUSE_MOVES: Record<WarehouseTarget, readonly Status[]> = {
  en_route: ["initial", "confirmed", "problem"],
  arrived_at_warehouse: ["initial", "confirmed", "en_route", "problem"],
  processing: ["arrived_at_warehouse", "problem"],
  processed: ["processing", "problem"],
  problem: ["en_route", "arrived_at_warehouse", "processing", "processed"],
  cancelled: ["initial", "confirmed", "en_route", "arrived_at_warehouse", "processing", "problem"],
};

/** For each status the merchant may set (confirm, delete), the statuses it may leave for it. */
export const MERCHANT_MOVES = {
  confirmed: ["initial"],
  deleted: ["initial", "confirmed"],
} as const satisfies Record<string, readonly Status[]>;

/**
 * The merchant's actions and what each needs: the one table the service enforces (assertMerchantAction) and
 * publishes (`actions` of every shipment: merchantActions). Keyed by the spec's InboundShipmentAction, in its
 * order; the spec's description of that schema shows this table (test/inbound/actions.test.ts holds it to this).
 */
const MERCHANT_ACTIONS: Record<MerchantAction, { statuses: readonly Status[]; beforeArrivals: boolean }> = {
  modify: { statuses: MODIFIABLE, beforeArrivals: false },
  confirm: { statuses: MERCHANT_MOVES.confirmed, beforeArrivals: false },
  delete: { statuses: MERCHANT_MOVES.deleted, beforeArrivals: true },
};

/** What of a shipment decides the merchant's actions. */
export interface ActionState {
  status: Status;
  hasArrivals: boolean;
}

const allows = (action: MerchantAction, s: ActionState) =>
  MERCHANT_ACTIONS[action].statuses.includes(s.status) && !(MERCHANT_ACTIONS[action].beforeArrivals && s.hasArrivals);

/** The merchant's actions allowed on a shipment now, in the spec's order. */
export function merchantActions(s: ActionState): MerchantAction[] {
  return (Object.keys(MERCHANT_ACTIONS) as MerchantAction[]).filter((a) => allows(a, s));
}

function invalidState(current: string, action: string): AppError {
  return new AppError("invalid_state", `Cannot ${action} an inbound shipment in status ${current}.`, [
    { path: "/status", message: `current status is ${current}`, code: current },
  ]);
}

/** Refuses (409 invalid_state) an action the table does not allow the merchant now. */
export function assertMerchantAction(action: MerchantAction, s: ActionState): void {
  if (allows(action, s)) return;
  if (!MERCHANT_ACTIONS[action].statuses.includes(s.status)) throw invalidState(s.status, action);
  throw new AppError("invalid_state", `Cannot ${action} an inbound shipment that has arrivals.`, [
    { path: "/status", message: `current status is ${s.status}; items have arrived`, code: s.status },
  ]);
}

export function assertWarehouseMove(current: Status, target: WarehouseTarget): void {
  if (!WAREHOUSE_MOVES[target].includes(current)) throw invalidState(current, `move to ${target}`);
}

export function assertIn(allowed: readonly Status[], current: Status, action: string): void {
  if (!allowed.includes(current)) throw invalidState(current, action);
}
