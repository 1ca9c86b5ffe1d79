// The merchant's side: announce, modify, confirm and delete inbound shipments.
import type {
  InboundShipmentCreate,
  InboundShipmentModify,
  InboundShipmentWriteResult,
  ProductLineInput,
} from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import { upsertProducts } from "../catalogue/db.ts";
import type { Tx } from "../db/transaction.ts";
import { AppError, invalid, type ErrorDetail } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { toCents } from "../shared/money.ts";
import { reconcileClosing } from "./closing.ts";
import * as q from "./db.ts";
import { checkDate, checkLines, throwIfAny } from "./input-checks.ts";
import { arrivedByProduct, loadOne, lockShipment, setStatus } from "./shipment.ts";
import { MODIFIABLE, assertIn, assertMerchantMove } from "./states.ts";
import type { Shipment } from "./wire.ts";

type WriteResult = InboundShipmentWriteResult;
type LineInput = ProductLineInput;

const MAX_LINES = 500;
const centsOrNull = (price: number | undefined) => (price === undefined ? null : toCents(price));

export async function createShipment(trx: Tx, merchant: Principal, input: InboundShipmentCreate): Promise<WriteResult> {
  const details: ErrorDetail[] = [];
  checkLines(input.products, "/body/products", details);
  checkDate(input.expected_at_wh, "/body/expected_at_wh", details);
  throwIfAny(details);

  const now = new Date();
  const id = newId(now.getTime());
  await q.insertShipment(trx, {
    id,
    merchant_id: merchant.id,
    merchants_ref: input.merchants_ref,
    sender_name: input.sender_name,
    status: "initial",
    expected_at_wh: input.expected_at_wh ?? null,
    created_at: now,
    updated_at: now,
  });
  const products = await upsertProducts(trx, merchant.id, input.products, now);
  await q.upsertLines(
    trx,
    id,
    input.products.map((l, position) => ({
      product_id: products.get(l.merchants_id)!,
      position,
      qty: l.qty,
      purchase_price_cents: centsOrNull(l.purchasePrice),
    })),
  );
  await q.insertStatusHistory(trx, id, null, "initial", merchant.name, now);
  return { success: true, shipment_id: id, status: "initial" };
}

export async function modifyShipment(
  trx: Tx,
  merchant: Principal,
  id: string,
  input: InboundShipmentModify,
): Promise<WriteResult> {
  const details: ErrorDetail[] = [];
  if (input.products && input.products_all) {
    details.push({
      path: "/body/products_all",
      message: "send either products (merge) or products_all (replace), not both",
      code: "oneOf",
    });
  }
  const newLines = input.products ?? input.products_all;
  const pointer = input.products ? "/body/products" : "/body/products_all";
  if (newLines) checkLines(newLines, pointer, details);
  checkDate(input.expected_at_wh, "/body/expected_at_wh", details);
  throwIfAny(details);

  const row = await lockShipment(trx, merchant, id);
  assertIn(MODIFIABLE, row.status, "modify");
  const now = new Date();
  const s = await loadOne(trx, row);

  if (newLines) await applyLines(trx, s, newLines, input.products_all !== undefined, pointer, now);
  await q.updateShipment(trx, id, {
    ...(input.merchants_ref !== undefined && { merchants_ref: input.merchants_ref }),
    ...(input.sender_name !== undefined && { sender_name: input.sender_name }),
    ...(input.expected_at_wh !== undefined && { expected_at_wh: input.expected_at_wh }),
    updated_at: now,
  });
  let status = row.status;
  if (newLines) {
    const changed = await loadOne(trx, { ...s.row, updated_at: now });
    status = (await reconcileClosing(trx, changed, merchant, now)).row.status;
  }
  return { success: true, shipment_id: id, status };
}

/** Merges (`replace` false) or replaces the lines; arrived items can never be dropped. */
async function applyLines(
  trx: Tx,
  s: Shipment,
  input: LineInput[],
  replace: boolean,
  pointer: string,
  now: Date,
): Promise<void> {
  const arrived = arrivedByProduct(s);
  const products = await upsertProducts(trx, s.row.merchant_id, input, now);
  const existing = new Map(s.lines.map((l) => [l.product_id, l]));
  const conflicts: ErrorDetail[] = [];

  input.forEach((l, i) => {
    const got = arrived.get(products.get(l.merchants_id)!) ?? 0;
    if (l.qty < got)
      conflicts.push({
        path: `${pointer}/${i}/qty`,
        message: `${got} items of ${l.merchants_id} have already arrived`,
        code: "below_arrived",
      });
  });
  const kept = new Set(input.map((l) => products.get(l.merchants_id)!));
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
    const productId = products.get(l.merchants_id)!;
    const before = existing.get(productId);
    const position = replace || !before ? nextPosition++ : before.position;
    const price = l.purchasePrice !== undefined ? centsOrNull(l.purchasePrice) : (before?.purchase_price_cents ?? null);
    return { product_id: productId, position, qty: l.qty, purchase_price_cents: price };
  });
  if (replace)
    await q.deleteLines(
      trx,
      s.row.id,
      removed.map((l) => l.product_id),
    );
  if (rows.length + (replace ? 0 : s.lines.filter((l) => !kept.has(l.product_id)).length) > MAX_LINES) {
    throw invalid([{ path: pointer, message: `a shipment has at most ${MAX_LINES} lines`, code: "maxItems" }]);
  }
  await q.upsertLines(trx, s.row.id, rows);
}

export async function confirmShipment(trx: Tx, merchant: Principal, id: string): Promise<WriteResult> {
  const row = await lockShipment(trx, merchant, id);
  assertMerchantMove(row.status, "confirmed");
  await setStatus(trx, await loadOne(trx, row), "confirmed", merchant, new Date());
  return { success: true, shipment_id: id, status: "confirmed" };
}

export async function deleteShipment(trx: Tx, merchant: Principal, id: string): Promise<WriteResult> {
  const row = await lockShipment(trx, merchant, id);
  assertMerchantMove(row.status, "deleted");
  const s = await loadOne(trx, row);
  if (s.arrivals.length) throw new AppError("invalid_state", "Cannot delete an inbound shipment that has arrivals.");
  await setStatus(trx, s, "deleted", merchant, new Date());
  return { success: true, shipment_id: id, status: "deleted" };
}
