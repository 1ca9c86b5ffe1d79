// A merchant's price lists, at most one per shipping method. Rules are checked on write (validatePriceList, the
// value rule of createPriceList and replacePriceList: shippingValueRules in http.ts), so a stored list can always be
// evaluated.
import type { DeletedResult, PriceList, PriceListInput, PriceListList } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { fromCents, toCents } from "../shared/money.ts";
import { checkIfMatch, entityTag } from "../shared/entity-tags.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";
import { normaliseRulePostalCodes } from "./rule-postal-codes.ts";

export type { PriceList };

export function priceListToWire(r: q.PriceListRow): PriceList {
  return {
    id: r.id,
    name: r.name,
    method: r.method,
    currency: r.currency,
    tax: r.tax,
    fallback_price: fromCents(r.fallback_price_cents),
    pricing_rules: r.pricing_rules,
    modification_rules: r.modification_rules,
    created_at: formatTimestamp(r.created_at),
    updated_at: formatTimestamp(r.updated_at),
  };
}

/** The columns of a list whose value rules passed (validatePriceList). */
function checked(input: PriceListInput) {
  return {
    name: input.name,
    method: input.method,
    currency: input.currency,
    tax: input.tax,
    fallback_price_cents: toCents(input.fallback_price),
    pricing_rules: JSON.stringify(normaliseRulePostalCodes(input.pricing_rules)),
    modification_rules: JSON.stringify(normaliseRulePostalCodes(input.modification_rules)),
  };
}

const taken = (method: string) =>
  new AppError("conflict", `You already have a price list for ${method}: replace or delete it.`, [
    { path: "/body/method", message: `${method} already has a price list`, code: "unique" },
  ]);

export async function listPriceLists(db: Executor, merchant: Principal): Promise<PriceListList> {
  return { items: (await q.listPriceLists(db, merchant.id)).map(priceListToWire) };
}

export async function getPriceList(db: Executor, merchant: Principal, id: string): Promise<PriceList> {
  const row = await q.findPriceList(db, merchant.id, id);
  if (!row) throw notFound("Price list");
  return priceListToWire(row);
}

export async function createPriceList(trx: Tx, merchant: Principal, input: PriceListInput): Promise<PriceList> {
  const values = checked(input);
  const now = new Date();
  const id = newId(now.getTime());
  if (!(await q.insertPriceList(trx, { id, merchant_id: merchant.id, ...values, created_at: now, updated_at: now })))
    throw taken(input.method);
  return getPriceList(trx, merchant, id);
}

/** `ifMatch`: the If-Match condition as sent (see entity-tags.ts); checked against the locked current version. */
export async function replacePriceList(
  trx: Tx,
  merchant: Principal,
  id: string,
  input: PriceListInput,
  ifMatch?: string,
): Promise<PriceList> {
  const values = checked(input);
  const current = await q.findPriceList(trx, merchant.id, id, true);
  if (!current) throw notFound("Price list");
  checkIfMatch(ifMatch, entityTag(priceListToWire(current)), "price list");
  if (!(await q.updatePriceList(trx, merchant.id, id, { ...values, updated_at: new Date() })))
    throw taken(input.method);
  return getPriceList(trx, merchant, id);
}

export async function deletePriceList(trx: Tx, merchant: Principal, id: string): Promise<DeletedResult> {
  if (!(await q.deletePriceList(trx, merchant.id, id))) throw notFound("Price list");
  return { success: true, id };
}
