// Inbound shipment rules: announcement, modification, arrivals and the warehouse state machine.
import type { components, operations } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Db } from "../db/database.ts";
import { inTransaction, type Tx } from "../db/transaction.ts";
import { AppError, invalid, notFound, type ErrorDetail } from "../shared/errors.ts";
import { isValidGtin } from "../shared/gtin.ts";
import { newId } from "../shared/ids.ts";
import { idempotent, type Outcome } from "../shared/idempotency.ts";
import { formatTimestamp, isCalendarDate } from "../shared/time.ts";
import * as q from "./db.ts";
import { toWire, type Shipment } from "./wire.ts";
import {
  BEFORE_PROCESSING, MODIFIABLE, RECEIVING,
  assertIn, assertMerchantMove, assertWarehouseMove, type Status,
} from "./states.ts";
import { recordEvent } from "./events.ts";

type S = components["schemas"];
type WriteResult = S["InboundShipmentWriteResult"];
type LineInput = S["ProductLineInput"];

const MAX_LINES = 500;
const FUTURE_SKEW_MS = 5 * 60_000;

// ---- input checks the schema cannot express -------------------------------------------------

function checkLines(lines: LineInput[] | S["ArrivalLineInput"][], pointer: string, details: ErrorDetail[]): void {
  const seen = new Set<string>();
  lines.forEach((l, i) => {
    if (seen.has(l.merchants_id)) {
      details.push({ path: `${pointer}/${i}/merchants_id`, message: `merchants_id ${l.merchants_id} appears more than once`, code: "duplicate" });
    }
    seen.add(l.merchants_id);
    if (l.gtin !== undefined && !isValidGtin(l.gtin)) {
      details.push({ path: `${pointer}/${i}/gtin`, message: "GTIN check digit is wrong", code: "gtin" });
    }
    // Not multipleOf in the spec: JSON Schema's float arithmetic rejects prices such as 19.99.
    if ("purchasePrice" in l && l.purchasePrice !== undefined && !hasAtMostTwoDecimals(l.purchasePrice)) {
      details.push({ path: `${pointer}/${i}/purchasePrice`, message: "at most two decimals", code: "multipleOf" });
    }
  });
}

function checkDate(value: string | null | undefined, pointer: string, details: ErrorDetail[]): void {
  if (typeof value === "string" && !isCalendarDate(value)) {
    details.push({ path: pointer, message: "must be a real calendar date (YYYY-MM-DD)", code: "format" });
  }
}

function throwIfAny(details: ErrorDetail[]): void {
  if (details.length) throw invalid(details);
}

const hasAtMostTwoDecimals = (x: number) => Math.abs(x * 100 - Math.round(x * 100)) < 1e-6;
const cents = (price: number | undefined) => (price === undefined ? null : Math.round(price * 100));

// ---- loading ---------------------------------------------------------------------------------

async function loadOne(db: q.Executor, row: q.ShipmentRow): Promise<Shipment> {
  const details = (await q.findDetails(db, [row.id])).get(row.id)!;
  return { row, ...details };
}

/** A merchant sees only its own shipments; an operator sees every merchant's. */
function scopeOf(actor: Principal): string | undefined {
  return actor.role === "merchant" ? actor.id : undefined;
}

async function lockShipment(trx: Tx, actor: Principal, id: string): Promise<q.ShipmentRow> {
  const row = await q.findShipment(trx, id, scopeOf(actor), true);
  if (!row) throw notFound("Inbound shipment");
  return row;
}

function arrivedByProduct(s: Shipment): Map<string, number> {
  const sums = new Map<string, number>();
  for (const a of s.arrivals) sums.set(a.product_id, (sums.get(a.product_id) ?? 0) + a.change);
  return sums;
}

async function setStatus(trx: Tx, s: Shipment, to: Status, actor: Principal, now: Date, extra: { closing?: boolean } = {}): Promise<void> {
  const from = s.row.status;
  await q.updateShipment(trx, s.row.id, { status: to, updated_at: now, ...extra });
  await q.insertStatusHistory(trx, s.row.id, from, to, actor.name, now);
  s.row = { ...s.row, status: to, updated_at: now, ...extra };
  await recordEvent(trx, "inbound_shipment.status_changed", s.row.merchant_id, now, {
    shipment_id: s.row.id, merchants_ref: s.row.merchants_ref, from_status: from as Status, status: to,
  });
}

// ---- merchant operations ---------------------------------------------------------------------

export async function createShipment(
  db: Db, merchant: Principal, input: S["InboundShipmentCreate"], idempotencyKey: string | undefined,
): Promise<Outcome<WriteResult>> {
  const details: ErrorDetail[] = [];
  checkLines(input.products, "/body/products", details);
  checkDate(input.expected_at_wh, "/body/expected_at_wh", details);
  throwIfAny(details);

  return idempotent(db, { principal: merchant.name, key: idempotencyKey, operation: "createInboundShipment", request: input }, async (trx) => {
    const now = new Date();
    const id = newId(now.getTime());
    await q.insertShipment(trx, {
      id, merchant_id: merchant.id, merchants_ref: input.merchants_ref, sender_name: input.sender_name,
      status: "initial", expected_at_wh: input.expected_at_wh ?? null, created_at: now, updated_at: now,
    });
    const products = await q.upsertProducts(trx, merchant.id, input.products, () => newId(now.getTime()), now);
    await q.upsertLines(trx, id, input.products.map((l, position) => ({
      product_id: products.get(l.merchants_id)!, position, qty: l.qty, purchase_price_cents: cents(l.purchasePrice),
    })));
    await q.insertStatusHistory(trx, id, null, "initial", merchant.name, now);
    return { status: 201, body: { success: true, shipment_id: id, status: "initial" } };
  });
}

export async function modifyShipment(db: Db, merchant: Principal, id: string, input: S["InboundShipmentModify"]): Promise<WriteResult> {
  const details: ErrorDetail[] = [];
  if (input.products && input.products_all) {
    details.push({ path: "/body/products_all", message: "send either products (merge) or products_all (replace), not both", code: "oneOf" });
  }
  const newLines = input.products ?? input.products_all;
  const pointer = input.products ? "/body/products" : "/body/products_all";
  if (newLines) checkLines(newLines, pointer, details);
  checkDate(input.expected_at_wh, "/body/expected_at_wh", details);
  throwIfAny(details);

  return inTransaction(db, async (trx) => {
    const row = await lockShipment(trx, merchant, id);
    assertIn(MODIFIABLE, row.status as Status, "modify");
    const now = new Date();
    const s = await loadOne(trx, row);

    if (newLines) await applyLines(trx, s, newLines, input.products_all !== undefined, pointer, now);
    await q.updateShipment(trx, id, {
      ...(input.merchants_ref !== undefined && { merchants_ref: input.merchants_ref }),
      ...(input.sender_name !== undefined && { sender_name: input.sender_name }),
      ...(input.expected_at_wh !== undefined && { expected_at_wh: input.expected_at_wh }),
      updated_at: now,
    });
    let status = row.status as Status;
    if (newLines) {
      const changed = await loadOne(trx, { ...s.row, updated_at: now });
      await reconcileClosing(trx, changed, merchant, now);
      status = changed.row.status as Status; // setStatus keeps the row in memory current
    }
    return { success: true, shipment_id: id, status };
  });
}

/** Merges (`replace` false) or replaces the lines; arrived items can never be dropped. */
async function applyLines(trx: Tx, s: Shipment, input: LineInput[], replace: boolean, pointer: string, now: Date): Promise<void> {
  const arrived = arrivedByProduct(s);
  const products = await q.upsertProducts(trx, s.row.merchant_id, input, () => newId(now.getTime()), now);
  const existing = new Map(s.lines.map((l) => [l.product_id, l]));
  const conflicts: ErrorDetail[] = [];

  input.forEach((l, i) => {
    const got = arrived.get(products.get(l.merchants_id)!) ?? 0;
    if (l.qty < got) conflicts.push({ path: `${pointer}/${i}/qty`, message: `${got} items of ${l.merchants_id} have already arrived`, code: "below_arrived" });
  });
  const kept = new Set(input.map((l) => products.get(l.merchants_id)!));
  const removed = replace ? s.lines.filter((l) => !kept.has(l.product_id)) : [];
  for (const l of removed) {
    if (s.arrivals.some((a) => a.product_id === l.product_id)) {
      conflicts.push({ path: pointer, message: `the line of ${l.merchants_id} has arrivals and cannot be removed`, code: "has_arrivals" });
    }
  }
  if (conflicts.length) throw new AppError("conflict", "The change would drop items that have already arrived.", conflicts);

  let nextPosition = replace ? 0 : Math.max(-1, ...s.lines.map((l) => l.position)) + 1;
  const rows = input.map((l) => {
    const productId = products.get(l.merchants_id)!;
    const before = existing.get(productId);
    const position = replace || !before ? nextPosition++ : before.position;
    const price = l.purchasePrice !== undefined ? cents(l.purchasePrice) : (before?.purchase_price_cents ?? null);
    return { product_id: productId, position, qty: l.qty, purchase_price_cents: price };
  });
  if (replace) await q.deleteLines(trx, s.row.id, removed.map((l) => l.product_id));
  if (rows.length + (replace ? 0 : s.lines.filter((l) => !kept.has(l.product_id)).length) > MAX_LINES) {
    throw invalid([{ path: pointer, message: `a shipment has at most ${MAX_LINES} lines`, code: "maxItems" }]);
  }
  await q.upsertLines(trx, s.row.id, rows);
}

export async function confirmShipment(db: Db, merchant: Principal, id: string): Promise<WriteResult> {
  return inTransaction(db, async (trx) => {
    const row = await lockShipment(trx, merchant, id);
    assertMerchantMove(row.status as Status, "confirmed");
    await setStatus(trx, await loadOne(trx, row), "confirmed", merchant, new Date());
    return { success: true, shipment_id: id, status: "confirmed" };
  });
}

export async function deleteShipment(db: Db, merchant: Principal, id: string): Promise<WriteResult> {
  return inTransaction(db, async (trx) => {
    const row = await lockShipment(trx, merchant, id);
    assertMerchantMove(row.status as Status, "deleted");
    const s = await loadOne(trx, row);
    if (s.arrivals.length) throw new AppError("invalid_state", "Cannot delete an inbound shipment that has arrivals.");
    await setStatus(trx, s, "deleted", merchant, new Date());
    return { success: true, shipment_id: id, status: "deleted" };
  });
}

export async function getShipment(db: Db, actor: Principal, id: string): Promise<S["InboundShipment"]> {
  const s = await q.findShipmentDetailed(db, id, scopeOf(actor));
  if (!s) throw notFound("Inbound shipment");
  return toWire(s);
}

type ListQuery = NonNullable<operations["listInboundShipments"]["parameters"]["query"]>;

export async function listShipments(db: Db, merchant: Principal, query: ListQuery): Promise<S["InboundShipmentList"]> {
  const limit = query.limit ?? 50;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await q.listShipments(db, {
    merchantId: merchant.id,
    statuses: query.status,
    merchantsRef: query.merchants_ref,
    updatedSince: query.updated_since === undefined ? undefined : new Date(query.updated_since),
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1]?.row;
  return {
    items: page.map(toWire),
    next_cursor: rows.length > limit && last ? encodeCursor(last.updated_at, last.id) : null,
  };
}

// The cursor keeps the millisecond position of the last row: updated_at is written with JS Dates.
function encodeCursor(updatedAt: Date, id: string): string {
  return Buffer.from(`${updatedAt.getTime()}.${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { updatedAt: Date; id: string } {
  const m = /^(\d{1,15})\.([0-9a-f]{24})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw invalid([{ path: "/query/cursor", message: "not a cursor this service returned", code: "cursor" }]);
  return { updatedAt: new Date(Number(m[1])), id: m[2]! };
}

// ---- warehouse operations --------------------------------------------------------------------

export async function recordArrivals(
  db: Db, operator: Principal, id: string, input: S["ArrivalsRecord"], idempotencyKey: string | undefined,
): Promise<Outcome<S["InboundShipment"]>> {
  const details: ErrorDetail[] = [];
  checkLines(input.arrivals, "/body/arrivals", details);
  const ts = input.ts === undefined ? undefined : new Date(input.ts);
  if (ts && ts.getTime() > Date.now() + FUTURE_SKEW_MS) details.push({ path: "/body/ts", message: "must not be in the future", code: "future" });
  throwIfAny(details);

  return idempotent(db, { principal: operator.name, key: idempotencyKey, operation: `recordInboundArrivals:${id}`, request: input }, async (trx) => {
    const row = await lockShipment(trx, operator, id);
    assertIn(RECEIVING, row.status as Status, "record arrivals on");
    const now = new Date();
    const s = await loadOne(trx, row);
    const arrived = arrivedByProduct(s);
    const onShipment = new Map(s.lines.map((l) => [l.merchants_id, l]));

    // Unannounced products become lines with qty 0; only they may create catalogue entries here.
    const unannounced = input.arrivals.filter((a) => !onShipment.has(a.merchants_id));
    const created = await q.upsertProducts(trx, row.merchant_id, unannounced, () => newId(now.getTime()), now);
    let position = Math.max(-1, ...s.lines.map((l) => l.position)) + 1;
    await q.upsertLines(trx, id, unannounced.map((a) => ({ product_id: created.get(a.merchants_id)!, position: position++, qty: 0, purchase_price_cents: null })));

    const conflicts: ErrorDetail[] = [];
    const entries = input.arrivals.map((a, i) => {
      const productId = onShipment.get(a.merchants_id)?.product_id ?? created.get(a.merchants_id)!;
      const total = (arrived.get(productId) ?? 0) + a.change;
      if (total < 0) conflicts.push({ path: `/body/arrivals/${i}/change`, message: `only ${arrived.get(productId) ?? 0} items of ${a.merchants_id} have arrived`, code: "below_zero" });
      return { shipment_id: id, product_id: productId, ts: ts ?? now, change: a.change, operator_id: operator.id };
    });
    if (conflicts.length) throw new AppError("conflict", "A correction would take arrived items below zero.", conflicts);
    await q.insertArrivals(trx, entries);
    await q.updateShipment(trx, id, { updated_at: now });

    let after = await loadOne(trx, { ...row, updated_at: now });
    if (BEFORE_PROCESSING.includes(row.status as Status)) await setStatus(trx, after, "processing", operator, now);
    if (await reconcileClosing(trx, after, operator, now)) after = await loadOne(trx, after.row);

    const productIds = new Set(entries.map((e) => e.product_id));
    const totals = arrivedByProduct(after);
    const skuOf = new Map(after.lines.map((l) => [l.product_id, l]));
    await recordEvent(trx, "inbound_shipment.items_arrived", row.merchant_id, now, {
      shipment_id: id,
      merchants_ref: after.row.merchants_ref,
      status: after.row.status as Status,
      arrivals: entries.map((e) => ({ merchants_id: skuOf.get(e.product_id)!.merchants_id, product_id: e.product_id, ts: formatTimestamp(e.ts), change: e.change })),
      products: after.lines.filter((l) => productIds.has(l.product_id)).map((l) => ({
        merchants_id: l.merchants_id, product_id: l.product_id, qty: l.qty, arrivedQty: totals.get(l.product_id) ?? 0,
      })),
    });
    return { status: 200, body: toWire(after) };
  });
}

export async function changeStatus(db: Db, operator: Principal, id: string, input: S["InboundStatusChange"]): Promise<S["InboundShipment"]> {
  if (input.status === "problem" && !input.problems) {
    throw invalid([{ path: "/body/problems", message: "at least one problem is required when moving to problem", code: "required" }]);
  }
  if (input.status !== "problem" && input.problems) {
    throw invalid([{ path: "/body/problems", message: "problems are only accepted when moving to problem", code: "not_allowed" }]);
  }
  return inTransaction(db, async (trx) => {
    const row = await lockShipment(trx, operator, id);
    const current = row.status as Status;
    assertWarehouseMove(current, input.status);
    const now = new Date();
    const s = await loadOne(trx, row);
    const open = s.problems.filter((p) => !p.resolved);

    if (input.status === "problem") {
      await q.insertProblems(trx, input.problems!.map((p) => ({
        id: newId(now.getTime()), shipment_id: id, type: p.type, merchants_id: p.merchants_id ?? null, description: p.description, created_at: now,
      })));
      await setStatus(trx, s, "problem", operator, now, { closing: false });
    } else if (input.status === "processed" && current === "processing") {
      const mismatches = mismatchProblems(s, now);
      if (mismatches.length) {
        await q.insertProblems(trx, mismatches);
        await setStatus(trx, s, "problem", operator, now, { closing: true });
      } else {
        await setStatus(trx, s, "processed", operator, now, { closing: false });
      }
    } else {
      // Leaving `problem` (or any other legal move): the warehouse's decision settles open problems.
      if (current === "problem") await q.resolveProblems(trx, open.map((p) => p.id), now);
      await setStatus(trx, s, input.status, operator, now, { closing: false });
    }
    const after = await loadOne(trx, s.row);
    await recordMilestone(trx, after, now);
    return toWire(after);
  });
}

/** `product.missing` / `product.extra` for every line whose arrivals differ from the announcement. */
function mismatchProblems(s: Shipment, now: Date): Omit<q.ProblemRow, "resolved" | "resolved_at">[] {
  const arrived = arrivedByProduct(s);
  return s.lines.flatMap((l) => {
    const got = arrived.get(l.product_id) ?? 0;
    if (got === l.qty) return [];
    const short = got < l.qty;
    return [{
      id: newId(now.getTime()), shipment_id: s.row.id, merchants_id: l.merchants_id, created_at: now,
      type: short ? "product.missing" : "product.extra",
      description: short ? `${l.qty - got} of ${l.qty} items of ${l.merchants_id} did not arrive.` : `${got - l.qty} more items of ${l.merchants_id} arrived than announced (${l.qty}).`,
    }];
  });
}

/**
 * Returns whether anything changed (and `s` is stale).
 * A shipment the warehouse tried to close waits in `problem` for matching quantities. When a
 * modification or an arrival makes every line match, its quantity problems resolve and, if no other
 * problem is open, it closes by itself.
 */
async function reconcileClosing(trx: Tx, s: Shipment, actor: Principal, now: Date): Promise<boolean> {
  if (s.row.status !== "problem" || !s.row.closing) return false;
  const stillWrong = new Set(mismatchProblems(s, now).map((p) => `${p.type}:${p.merchants_id}`));
  const open = s.problems.filter((p) => !p.resolved);
  const settled = open.filter((p) => (p.type === "product.missing" || p.type === "product.extra") && !stillWrong.has(`${p.type}:${p.merchants_id}`));
  await q.resolveProblems(trx, settled.map((p) => p.id), now);
  if (stillWrong.size === 0 && open.length === settled.length) {
    await setStatus(trx, s, "processed", actor, now, { closing: false });
    await recordMilestone(trx, await loadOne(trx, s.row), now);
  }
  return settled.length > 0;
}

/** The events merchants follow most get their own type, with the whole shipment. */
async function recordMilestone(trx: Tx, s: Shipment, now: Date): Promise<void> {
  if (s.row.status === "arrived_at_warehouse") {
    await recordEvent(trx, "inbound_shipment.arrived_at_warehouse", s.row.merchant_id, now, { shipment: toWire(s) });
  } else if (s.row.status === "processed") {
    await recordEvent(trx, "inbound_shipment.processed", s.row.merchant_id, now, { shipment: toWire(s) });
  }
}
