// One change of a shipment, in memory: the aggregate as it is after the change, the rows to write, and the
// events the change caused. Domain functions record into it; the service saves it and raises its events.
import type { Principal } from "../accounts/domain.ts";
import type { LineRow, NewArrival, Shipment, ShipmentRow, ShipmentWrites } from "./db.ts";
import type { ActionState, Status } from "./states.ts";
import type { RecordedBy } from "./tables.ts";

export type ShipmentEvent =
  | { type: "inbound_shipment.status_changed"; from: Status; to: Status }
  | { type: "inbound_shipment.arrived_at_warehouse" | "inbound_shipment.processed" }
  | { type: "inbound_shipment.items_arrived"; entries: ShipmentWrites["arrivals"]; recordedBy: RecordedBy };

export interface ShipmentChange {
  /** The shipment as it is after the change (updated in place). */
  s: Shipment;
  at: Date;
  writes: ShipmentWrites;
  events: ShipmentEvent[];
}

/** Every change touches `updated_at`, so that polling by `updated_since` sees it. */
export function beginChange(s: Shipment, at: Date): ShipmentChange {
  s.row.updated_at = at;
  return {
    s,
    at,
    writes: {
      row: { updated_at: at },
      upsertedLines: [],
      removedLines: [],
      arrivals: [],
      problems: [],
      resolvedProblems: [],
      history: [],
    },
    events: [],
  };
}

export function setFields(c: ShipmentChange, fields: Omit<ShipmentChange["writes"]["row"], "updated_at">): void {
  Object.assign(c.s.row, fields);
  Object.assign(c.writes.row, fields);
}

/** What decides the merchant's actions on `s` (states.ts). */
export const actionState = (s: Shipment): ActionState => ({ status: s.row.status, hasArrivals: s.arrivals.length > 0 });

export function arrivedByProduct(s: Shipment): Map<string, number> {
  const sums = new Map<string, number>();
  for (const a of s.arrivals) sums.set(a.product_id, (sums.get(a.product_id) ?? 0) + a.change);
  return sums;
}

/** Moves the shipment, records its history and the status_changed event (and the milestone it reached). */
export function moveTo(
  c: ShipmentChange,
  to: Status,
  actor: Principal,
  extra: Partial<Pick<ShipmentRow, "closing">> = {},
): void {
  const from = c.s.row.status;
  setFields(c, { status: to, ...extra });
  c.writes.history.push({ from_status: from, to_status: to, actor: actor.name });
  c.events.push({ type: "inbound_shipment.status_changed", from, to });
  // The events merchants follow most get their own type, with the whole shipment.
  if (to === "arrived_at_warehouse" || to === "processed") c.events.push({ type: `inbound_shipment.${to}` });
}

/** Resolves the given open problems. */
export function resolveProblems(c: ShipmentChange, ids: string[]): void {
  const settled = new Set(ids);
  for (const p of c.s.problems) {
    if (!settled.has(p.id)) continue;
    p.resolved = true;
    p.resolved_at = c.at;
  }
  c.writes.resolvedProblems.push(...ids);
}

export function addProblems(c: ShipmentChange, problems: ShipmentWrites["problems"]): void {
  c.s.problems.push(...problems.map((p) => ({ ...p, resolved: false, resolved_at: null })));
  c.writes.problems.push(...problems);
}

/** Adds or replaces lines by product; the shipment keeps its lines in position order. */
export function putLines(c: ShipmentChange, lines: LineRow[]): void {
  const byProduct = new Map(c.s.lines.map((l) => [l.product_id, l]));
  for (const l of lines) byProduct.set(l.product_id, l);
  c.s.lines = [...byProduct.values()].sort((a, b) => a.position - b.position);
  // One row per product: the save's upsert may not touch a row twice.
  const written = new Map(c.writes.upsertedLines.map((l) => [l.product_id, l]));
  for (const l of lines) written.set(l.product_id, l);
  c.writes.upsertedLines = [...written.values()];
}

export function removeLines(c: ShipmentChange, productIds: string[]): void {
  const removed = new Set(productIds);
  c.s.lines = c.s.lines.filter((l) => !removed.has(l.product_id));
  c.writes.removedLines.push(...productIds);
}

/** Appends arrival entries; the shipment keeps its arrivals in `ts` order, as they are read back. */
export function addArrivals(c: ShipmentChange, entries: NewArrival[]): void {
  const added = entries.map((a) => ({ shipment_id: c.s.row.id, ...a }));
  // Stable: entries of one instant keep the order of their ids, which are given in insertion order.
  c.s.arrivals = [...c.s.arrivals, ...added].sort((a, b) => a.ts.getTime() - b.ts.getTime());
  c.writes.arrivals.push(...entries);
}
