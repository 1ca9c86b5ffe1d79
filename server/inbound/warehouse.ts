// The warehouse's side: record arrivals and move shipments through the warehouse states.
import type { ArrivalsRecord, InboundShipment, InboundStatusChange } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import { upsertProducts } from "../catalogue/db.ts";
import type { Tx } from "../db/transaction.ts";
import { AppError, invalid, type ErrorDetail } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { recordEvent } from "../webhooks/outbox.ts";
import { mismatchProblems, reconcileClosing } from "./closing.ts";
import * as q from "./db.ts";
import { itemsArrivedPayload, recordMilestone } from "./events.ts";
import { checkLines, throwIfAny } from "./input-checks.ts";
import { arrivedByProduct, loadOne, lockShipment, setStatus } from "./shipment.ts";
import { BEFORE_PROCESSING, RECEIVING, assertIn, assertWarehouseMove } from "./states.ts";
import { toWire } from "./wire.ts";

// An arrival's ts lies between this date and 5 minutes ahead of our clock (skew of the warehouse's clocks).
const EARLIEST_TS = Date.UTC(2000, 0, 1);
const FUTURE_SKEW_MS = 5 * 60_000;
/** Like `qty`, a line's arrived total stays within what a line can announce, so that it can be reconciled. */
const MAX_ARRIVED = 1_000_000;

export async function recordArrivals(
  trx: Tx,
  operator: Principal,
  id: string,
  input: ArrivalsRecord,
): Promise<InboundShipment> {
  const details: ErrorDetail[] = [];
  checkLines(input.arrivals, "/body/arrivals", details);
  const ts = input.ts === undefined ? undefined : new Date(input.ts);
  if (ts && ts.getTime() > Date.now() + FUTURE_SKEW_MS)
    details.push({ path: "/body/ts", message: "must not be in the future", code: "future" });
  // Also catches years PostgreSQL cannot store (before year 1), which Date accepts.
  if (ts && !(ts.getTime() >= EARLIEST_TS))
    details.push({ path: "/body/ts", message: "must not be before 2000-01-01T00:00:00Z", code: "too_early" });
  throwIfAny(details);

  const row = await lockShipment(trx, operator, id);
  assertIn(RECEIVING, row.status, "record arrivals on");
  const now = new Date();
  const s = await loadOne(trx, row);
  const arrived = arrivedByProduct(s);
  const onShipment = new Map(s.lines.map((l) => [l.merchants_id, l]));

  // Unannounced products become lines with qty 0; only they may create catalogue entries here.
  const unannounced = input.arrivals.filter((a) => !onShipment.has(a.merchants_id));
  const created = await upsertProducts(trx, row.merchant_id, unannounced, now);
  let position = Math.max(-1, ...s.lines.map((l) => l.position)) + 1;
  await q.upsertLines(
    trx,
    id,
    unannounced.map((a) => ({
      product_id: created.get(a.merchants_id)!,
      position: position++,
      qty: 0,
      purchase_price_cents: null,
    })),
  );

  const conflicts: ErrorDetail[] = [];
  const entries = input.arrivals.map((a, i) => {
    const productId = onShipment.get(a.merchants_id)?.product_id ?? created.get(a.merchants_id)!;
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
    return { shipment_id: id, product_id: productId, ts: ts ?? now, change: a.change, operator_id: operator.id };
  });
  if (conflicts.length)
    throw new AppError("conflict", "An arrived total would go below zero or above 1000000.", conflicts);
  await q.insertArrivals(trx, entries);
  await q.updateShipment(trx, id, { updated_at: now });

  let after = await loadOne(trx, { ...row, updated_at: now });
  if (BEFORE_PROCESSING.includes(row.status)) after = await setStatus(trx, after, "processing", operator, now);
  after = await reconcileClosing(trx, after, operator, now);
  await recordEvent(trx, "inbound_shipment.items_arrived", row.merchant_id, now, itemsArrivedPayload(after, entries));
  return toWire(after);
}

export async function changeStatus(
  trx: Tx,
  operator: Principal,
  id: string,
  input: InboundStatusChange,
): Promise<InboundShipment> {
  if (input.status === "problem" && !input.problems) {
    throw invalid([
      { path: "/body/problems", message: "at least one problem is required when moving to problem", code: "required" },
    ]);
  }
  if (input.status !== "problem" && input.problems) {
    throw invalid([
      { path: "/body/problems", message: "problems are only accepted when moving to problem", code: "not_allowed" },
    ]);
  }
  const row = await lockShipment(trx, operator, id);
  const current = row.status;
  assertWarehouseMove(current, input.status);
  const now = new Date();
  const s = await loadOne(trx, row);
  let moved;

  if (input.status === "problem") {
    await q.insertProblems(
      trx,
      input.problems!.map((p) => ({
        id: newId(now.getTime()),
        shipment_id: id,
        type: p.type,
        merchants_id: p.merchants_id ?? null,
        description: p.description,
        created_at: now,
      })),
    );
    moved = await setStatus(trx, s, "problem", operator, now, { closing: false });
  } else if (input.status === "processed" && current === "processing") {
    const mismatches = mismatchProblems(s, now);
    if (mismatches.length) {
      await q.insertProblems(trx, mismatches);
      moved = await setStatus(trx, s, "problem", operator, now, { closing: true });
    } else {
      moved = await setStatus(trx, s, "processed", operator, now, { closing: false });
    }
  } else {
    // Leaving `problem` (or any other legal move): the warehouse's decision settles open problems.
    if (current === "problem")
      await q.resolveProblems(
        trx,
        s.problems.filter((p) => !p.resolved).map((p) => p.id),
        now,
      );
    moved = await setStatus(trx, s, input.status, operator, now, { closing: false });
  }
  const after = await loadOne(trx, moved.row);
  await recordMilestone(trx, after, now);
  return toWire(after);
}
