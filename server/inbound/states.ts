import type { components } from "../../generated/api.ts";
import { AppError } from "../shared/errors.ts";

export type Status = components["schemas"]["InboundShipmentStatus"];
export type WarehouseTarget = components["schemas"]["InboundStatusChange"]["status"];

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

function invalidState(current: string, action: string): AppError {
  return new AppError("invalid_state", `Cannot ${action} an inbound shipment in status ${current}.`, [
    { path: "/status", message: `current status is ${current}`, code: current },
  ]);
}

export function assertWarehouseMove(current: Status, target: WarehouseTarget): void {
  if (!WAREHOUSE_MOVES[target].includes(current)) throw invalidState(current, `move to ${target}`);
}

export function assertMerchantMove(current: Status, target: keyof typeof MERCHANT_MOVES): void {
  if (!(MERCHANT_MOVES[target] as readonly Status[]).includes(current)) {
    throw invalidState(current, target === "confirmed" ? "confirm" : "delete");
  }
}

export function assertIn(allowed: readonly Status[], current: Status, action: string): void {
  if (!allowed.includes(current)) throw invalidState(current, action);
}
