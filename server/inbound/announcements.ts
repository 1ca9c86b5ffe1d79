// The merchant's side: announce, modify, confirm and delete inbound shipments.
import type {
  InboundShipmentCreate,
  InboundShipmentModify,
  InboundShipmentWriteResult,
  ProductLineInput,
} from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import { upsertProductsDetailed, type CatalogueProduct } from "../catalogue/db.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import { AppError, invalid, type ErrorDetail } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { toCents } from "../shared/money.ts";
import { reconcileClosing } from "./closing.ts";
import { raiseEvents } from "./events.ts";
import {
  actionState,
  arrivedByProduct,
  beginChange,
  moveTo,
  putLines,
  removeLines,
  setFields,
  type ShipmentChange,
} from "./shipment.ts";
import { insertNewShipment, updateShipment, type LineRow, type Shipment } from "./db.ts";
import { assertMerchantAction } from "./states.ts";

type WriteResult = InboundShipmentWriteResult;
type LineInput = ProductLineInput;

const MAX_LINES = 500;
const centsOrNull = (price: number | undefined) => (price === undefined ? null : toCents(price));

/** Atomic by itself: one statement. */
export async function createShipment(
  db: Executor,
  merchant: Principal,
  input: InboundShipmentCreate,
): Promise<WriteResult> {
  // Its value rules (input-checks.ts) ran with the schema check, before the handler.
  const now = new Date();
  const id = newId(now.getTime());
  const row = {
    id,
    merchant_id: merchant.id,
    merchants_ref: input.merchants_ref,
    sender_name: input.sender_name,
    status: "initial" as const,
    expected_at_wh: input.expected_at_wh ?? null,
    closing: false,
    created_at: now,
    updated_at: now,
  };
  // Each line in one shape (no spread of the parsed body's objects): the statement's values are read from it.
  const lines = input.products.map((l, position) => ({
    merchants_id: l.merchants_id,
    name: l.name,
    gtin: l.gtin,
    qty: l.qty,
    position,
    purchase_price_cents: centsOrNull(l.purchasePrice),
  }));
  // A new shipment raises no event: its one statement is all there is. A product that another request added while
  // it ran is one it neither added nor saw, and it wrote nothing of the shipment: run again, the next snapshot sees
  // that product. Each product can be late once, so there are at most as many tries as lines, and one in practice.
  for (let tries = 0; !(await insertNewShipment(db, row, lines, { actor: merchant.name })); tries++) {
    if (tries === lines.length) throw new Error(`shipment ${id}: its products kept changing while it was written`);
  }
  return { success: true, shipment_id: id, status: "initial" };
}

function lineOf(
  s: Shipment,
  l: LineInput,
  products: Map<string, CatalogueProduct>,
  position: number,
  price: number | null,
): LineRow {
  const p = products.get(l.merchants_id)!;
  const line = { product_id: p.id, position, qty: l.qty, purchase_price_cents: price };
  return { ...line, shipment_id: s.row.id, merchants_id: l.merchants_id, name: p.name, gtin: p.gtin };
}

export async function modifyShipment(
  trx: Tx,
  merchant: Principal,
  id: string,
  input: InboundShipmentModify,
): Promise<WriteResult> {
  // Its value rules (input-checks.ts: not both products and products_all, ...) ran with the schema check.
  const newLines = input.products ?? input.products_all;
  const pointer = input.products ? "/body/products" : "/body/products_all";

  const c = await updateShipment(trx, merchant, id, async (s) => {
    assertMerchantAction("modify", actionState(s));
    const now = new Date();
    const products = newLines && (await upsertProductsDetailed(trx, s.row.merchant_id, newLines, now));
    const c = beginChange(s, now);
    if (newLines) applyLines(c, newLines, products!, input.products_all !== undefined, pointer);
    setFields(c, {
      ...(input.merchants_ref !== undefined && { merchants_ref: input.merchants_ref }),
      ...(input.sender_name !== undefined && { sender_name: input.sender_name }),
      ...(input.expected_at_wh !== undefined && { expected_at_wh: input.expected_at_wh }),
    });
    if (newLines) reconcileClosing(c, merchant);
    return c;
  });
  await raiseEvents(trx, c);
  return { success: true, shipment_id: id, status: c.s.row.status };
}

/** Merges (`replace` false) or replaces the lines; arrived items can never be dropped. */
function applyLines(
  c: ShipmentChange,
  input: LineInput[],
  products: Map<string, CatalogueProduct>,
  replace: boolean,
  pointer: string,
): void {
  const s = c.s;
  const arrived = arrivedByProduct(s);
  const existing = new Map(s.lines.map((l) => [l.product_id, l]));
  const conflicts: ErrorDetail[] = [];

  input.forEach((l, i) => {
    const got = arrived.get(products.get(l.merchants_id)!.id) ?? 0;
    if (l.qty < got)
      conflicts.push({
        path: `${pointer}/${i}/qty`,
        message: `${got} items of ${l.merchants_id} have already arrived`,
        code: "below_arrived",
      });
  });
  const kept = new Set(input.map((l) => products.get(l.merchants_id)!.id));
  const removed = replace ? s.lines.filter((l) => !kept.has(l.product_id)) : [];
  for (const l of removed) {
    if (s.arrivals.some((a) => a.product_id === l.product_id)) {
      conflicts.push({
        path: pointer,
        message: `the line of ${l.merchants_id} has arrivals and cannot be removed`,
        code: "has_arrivals",
      });
    }
  }
  if (conflicts.length)
    throw new AppError("conflict", "The change would drop items that have already arrived.", conflicts);

  let nextPosition = replace ? 0 : Math.max(-1, ...s.lines.map((l) => l.position)) + 1;
  const rows = input.map((l) => {
    const before = existing.get(products.get(l.merchants_id)!.id);
    const position = replace || !before ? nextPosition++ : before.position;
    const price = l.purchasePrice !== undefined ? centsOrNull(l.purchasePrice) : (before?.purchase_price_cents ?? null);
    return lineOf(s, l, products, position, price);
  });
  if (rows.length + (replace ? 0 : s.lines.filter((l) => !kept.has(l.product_id)).length) > MAX_LINES) {
    throw invalid([{ path: pointer, message: `a shipment has at most ${MAX_LINES} lines`, code: "maxItems" }]);
  }
  removeLines(
    c,
    removed.map((l) => l.product_id),
  );
  putLines(c, rows);
}

export async function confirmShipment(trx: Tx, merchant: Principal, id: string): Promise<WriteResult> {
  const c = await updateShipment(trx, merchant, id, (s) => {
    assertMerchantAction("confirm", actionState(s));
    const c = beginChange(s, new Date());
    moveTo(c, "confirmed", merchant);
    return c;
  });
  await raiseEvents(trx, c);
  return { success: true, shipment_id: id, status: "confirmed" };
}

export async function deleteShipment(trx: Tx, merchant: Principal, id: string): Promise<WriteResult> {
  const c = await updateShipment(trx, merchant, id, (s) => {
    assertMerchantAction("delete", actionState(s));
    const c = beginChange(s, new Date());
    moveTo(c, "deleted", merchant);
    return c;
  });
  await raiseEvents(trx, c);
  return { success: true, shipment_id: id, status: "deleted" };
}
