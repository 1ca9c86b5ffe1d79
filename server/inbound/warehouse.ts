// The warehouse's side: record arrivals and move shipments through the warehouse states.
import type { ArrivalsRecord, InboundShipment, InboundStatusChange } from "../../generated/api.ts";
import { stationSessionOf, type Principal } from "../accounts/domain.ts";
import { upsertProductsDetailed, type CatalogueProduct } from "../catalogue/db.ts";
import type { Tx } from "../db/transaction.ts";
import { AppError, type ErrorDetail } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { mismatchProblems, reconcileClosing } from "./closing.ts";
import { raiseEvents } from "./events.ts";
import {
  addArrivals,
  addProblems,
  arrivedByProduct,
  beginChange,
  moveTo,
  putLines,
  resolveProblems,
  type ShipmentChange,
} from "./shipment.ts";
import { updateShipment, type Shipment } from "./db.ts";
import { BEFORE_PROCESSING, RECEIVING, assertIn, assertWarehouseMove, type WarehouseTarget } from "./states.ts";
import type { RecordedBy } from "./tables.ts";
import { toWire } from "./wire.ts";

/** Who records, as arrivals and their events name it: the warehouse user at a station, or the W-... system. */
export function recorderOf(actor: Principal): RecordedBy {
  const station = stationSessionOf(actor);
  return station
    ? { type: "warehouse_user", id: station.user.id, name: station.user.name }
    : { type: "warehouse", id: actor.id, name: actor.id };
}

/** Like `qty`, a line's arrived total stays within what a line can announce, so that it can be reconciled. */
const MAX_ARRIVED = 1_000_000;

export async function recordArrivals(
  trx: Tx,
  operator: Principal,
  id: string,
  input: ArrivalsRecord,
): Promise<InboundShipment> {
  // Its value rules (input-checks.ts: ts within 2000-01-01 .. now + 5 minutes, ...) ran with the schema check.
  const ts = input.ts === undefined ? undefined : new Date(input.ts);
  const c = await updateShipment(trx, operator, id, async (s) => {
    assertIn(RECEIVING, s.row.status, "record arrivals on");
    const now = new Date();
    // Unannounced products become lines with qty 0; only they may create catalogue entries here.
    const onShipment = new Set(s.lines.map((l) => l.merchants_id));
    const unannounced = input.arrivals.filter((a) => !onShipment.has(a.merchants_id));
    const created = await upsertProductsDetailed(trx, s.row.merchant_id, unannounced, now);
    return receive(s, input.arrivals, created, operator, ts ?? now, now);
  });
  await raiseEvents(trx, c);
  return toWire(c.s);
}

/** Appends the arrival entries, moves the shipment on to `processing` and lets it close if the lines now match. */
function receive(
  s: Shipment,
  arrivals: ArrivalsRecord["arrivals"],
  created: Map<string, CatalogueProduct>,
  operator: Principal,
  ts: Date,
  now: Date,
): ShipmentChange {
  const c = beginChange(s, now);
  const arrived = arrivedByProduct(s);
  let position = Math.max(-1, ...s.lines.map((l) => l.position)) + 1;
  putLines(
    c,
    arrivals
      .filter((a) => created.has(a.merchants_id))
      .map((a) => {
        const p = created.get(a.merchants_id)!;
        const line = { product_id: p.id, position: position++, qty: 0, purchase_price_cents: null };
        return { ...line, shipment_id: s.row.id, merchants_id: a.merchants_id, name: p.name, gtin: p.gtin };
      }),
  );
  const productOf = new Map(s.lines.map((l) => [l.merchants_id, l.product_id]));

  const recordedBy = recorderOf(operator);
  const conflicts: ErrorDetail[] = [];
  const entries = arrivals.map((a, i) => {
    const productId = productOf.get(a.merchants_id)!;
    const total = (arrived.get(productId) ?? 0) + a.change;
    if (total < 0)
      conflicts.push({
        path: `/body/arrivals/${i}/change`,
        message: `only ${arrived.get(productId) ?? 0} items of ${a.merchants_id} have arrived`,
        code: "below_zero",
      });
    if (total > MAX_ARRIVED)
      conflicts.push({
        path: `/body/arrivals/${i}/change`,
        message: `${a.merchants_id} would have more than ${MAX_ARRIVED} arrived items`,
        code: "above_maximum",
      });
    return { product_id: productId, ts, change: a.change, operator_id: operator.id, recorded_by: recordedBy };
  });
  if (conflicts.length)
    throw new AppError("conflict", "An arrived total would go below zero or above 1000000.", conflicts);
  const before = s.row.status;
  addArrivals(c, entries);
  if (BEFORE_PROCESSING.includes(before)) moveTo(c, "processing", operator);
  reconcileClosing(c, operator);
  c.events.push({ type: "inbound_shipment.items_arrived", entries, recordedBy });
  return c;
}

export async function changeStatus(
  trx: Tx,
  operator: Principal,
  id: string,
  input: InboundStatusChange,
): Promise<InboundShipment> {
  // Its value rule (input-checks.ts: problems exactly when moving to problem) ran with the schema check.
  const c = await updateShipment(trx, operator, id, (s) => warehouseMove(s, input, operator, new Date()));
  await raiseEvents(trx, c);
  return toWire(c.s);
}

/** The warehouse's move along its table; closing waits in `problem` while lines are short or over. */
function warehouseMove(s: Shipment, input: InboundStatusChange, operator: Principal, now: Date): ShipmentChange {
  const current = s.row.status;
  assertWarehouseMove(current, input.status);
  assertRoleMay(operator, s, input.status);
  const c = beginChange(s, now);
  if (input.status === "problem") {
    addProblems(
      c,
      input.problems!.map((p) => ({
        id: newId(now.getTime()),
        shipment_id: s.row.id,
        type: p.type,
        merchants_id: p.merchants_id ?? null,
        description: p.description,
        created_at: now,
      })),
    );
    moveTo(c, "problem", operator, { closing: false });
  } else if (input.status === "processed" && current === "processing") {
    const mismatches = mismatchProblems(s, now);
    if (mismatches.length) {
      addProblems(c, mismatches);
      moveTo(c, "problem", operator, { closing: true });
    } else {
      moveTo(c, "processed", operator, { closing: false });
    }
  } else {
    // Leaving `problem` (or any other legal move): the warehouse's decision settles open problems.
    if (current === "problem")
      resolveProblems(
        c,
        s.problems.filter((p) => !p.resolved).map((p) => p.id),
      );
    moveTo(c, input.status, operator, { closing: false });
  }
  return c;
}

/** The moves a receiver may make: "Arrived", start receiving, and finish a shipment whose lines all match. */
const RECEIVER_MOVES: ReadonlySet<WarehouseTarget> = new Set<WarehouseTarget>([
  "arrived_at_warehouse",
  "processing",
  "processed",
]);

/**
 * The role table of warehouse users (the spec's WarehouseUserRole): a receiver's moves are the few above, and a
 * finish only from `processing` with no line short or over; a supervisor, like the W-... systems, may make every
 * legal move. 403, nothing changed, otherwise.
 */
function assertRoleMay(actor: Principal, s: Shipment, target: WarehouseTarget): void {
  if (stationSessionOf(actor)?.userRole !== "receiver") return;
  if (!RECEIVER_MOVES.has(target))
    throw new AppError("access_denied", `Only a supervisor may move a shipment to ${target}.`);
  if (target === "processed" && (s.row.status !== "processing" || mismatchProblems(s, new Date()).length > 0))
    throw new AppError(
      "access_denied",
      "Only a supervisor may finish a shipment with differences: some lines did not get what was announced.",
      [{ path: "/body/status", message: "the lines differ from the announcement", code: "differences" }],
    );
}
