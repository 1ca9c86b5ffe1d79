// Customer orders: stored so that shipping options can be asked per order. Lines share the merchant's catalogue
// with inbound shipments; the destination is home, letter or a pickup point of the directory.
import type { Order, OrderCreate, OrderLine, OrderModify, OrderWriteResult } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import { upsertProducts } from "../catalogue/db.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import { pickupPointBranch } from "../pickup-points/lookup.ts";
import { invalid, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { fromCents, toCents } from "../shared/money.ts";
import { normalisePostalCode } from "../shared/postal-codes.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";
import { checkOrderQuote, checkQuotedAnswer, type QuoteCheckInput } from "../quotes/quotes.ts";
import { orderOwnAnswer } from "../shipping/order-answer.ts";
import { orderFacts, type OrderFactsInput } from "../shipping/facts.ts";

export type { Order };
type Line = OrderLine;

function toWire(o: q.OrderRow & { lines: q.LineRow[] }): Order {
  return {
    id: o.id,
    merchants_ref: o.merchants_ref,
    customer: o.customer,
    products: o.lines.map((l) => ({
      merchants_id: l.merchants_id,
      ...(l.name !== null && { name: l.name }),
      qty: l.qty,
      unit_price: fromCents(l.unit_price_cents),
      weight_g: l.weight_g,
      ...(l.length_mm !== null && { dimensions_mm: { length: l.length_mm, width: l.width_mm!, height: l.height_mm! } }),
      letter_allowed: l.letter_allowed,
    })),
    tags: o.tags,
    destination: o.destination,
    ...(o.shipping_quote && { shipping_quote: o.shipping_quote }),
    created_at: formatTimestamp(o.created_at),
    updated_at: formatTimestamp(o.updated_at),
  };
}

/** The pickup point a destination names is in the directory (the rest of an order's value rules: input-checks.ts). */
async function check(db: Executor, input: OrderModify): Promise<void> {
  const destination = input.destination;
  if (
    destination &&
    destination !== "home" &&
    destination !== "letter" &&
    (await pickupPointBranch(db, destination)) === undefined
  ) {
    throw invalid([
      {
        path: "/body/destination",
        message: `no pickup point ${destination} in the directory`,
        code: "unknown_pickup_point",
      },
    ]);
  }
}

async function lineRows(trx: Tx, merchant: Principal, orderId: string, lines: Line[], now: Date): Promise<q.LineRow[]> {
  const products = await upsertProducts(
    trx,
    merchant.id,
    lines.map((l) => ({ merchants_id: l.merchants_id, ...(l.name !== undefined && { name: l.name }) })),
    now,
  );
  return lines.map((l, position) => ({
    order_id: orderId,
    position,
    product_id: products.get(l.merchants_id)!,
    merchants_id: l.merchants_id,
    name: l.name ?? null,
    qty: l.qty,
    unit_price_cents: toCents(l.unit_price),
    weight_g: l.weight_g,
    length_mm: l.dimensions_mm?.length ?? null,
    width_mm: l.dimensions_mm?.width ?? null,
    height_mm: l.dimensions_mm?.height ?? null,
    letter_allowed: l.letter_allowed ?? true,
  }));
}

/** `input` with the customer's postal code in its country's form: stored, priced and compared in that one spelling. */
function normalised<T extends OrderModify>(input: T): T {
  const c = input.customer;
  return c ? { ...input, customer: { ...c, postalcode: normalisePostalCode(c.country, c.postalcode) } } : input;
}

/** The facts a quote is compared with (letter limits play no part in a quote: any will do). */
const quoteFactsOf = (order: OrderFactsInput) => orderFacts(order, { max_weight_g: Number.MAX_SAFE_INTEGER });

export async function createOrder(
  trx: Tx,
  merchant: Principal,
  sent: OrderCreate,
  quoteCheck: QuoteCheckInput,
): Promise<OrderWriteResult> {
  await check(trx, sent);
  const input = normalised(sent);
  const quoted =
    input.quote === undefined
      ? undefined
      : checkOrderQuote(input.quote, merchant.id, quoteFactsOf(input), input.destination, quoteCheck);
  if (quoted) checkQuotedAnswer(quoted.stored, await orderOwnAnswer(trx, merchant.id, input, quoted.destination));
  const now = new Date();
  const id = newId(now.getTime());
  await q.insertOrder(trx, {
    id,
    merchant_id: merchant.id,
    merchants_ref: input.merchants_ref,
    customer: JSON.stringify(input.customer),
    tags: JSON.stringify(input.tags ?? []),
    destination: quoted?.destination ?? input.destination ?? null,
    shipping_quote: quoted ? JSON.stringify(quoted.stored) : null,
    created_at: now,
    updated_at: now,
  });
  await q.replaceLines(trx, id, await lineRows(trx, merchant, id, input.products, now));
  return { success: true, order_id: id };
}

export async function modifyOrder(
  trx: Tx,
  merchant: Principal,
  id: string,
  sent: OrderModify,
  quoteCheck: QuoteCheckInput,
): Promise<OrderWriteResult> {
  await check(trx, sent);
  const input = normalised(sent);
  if (!(await q.lockOrder(trx, merchant.id, id))) throw notFound("Order");
  // A new quote is checked against the order as it will be; a change of its facts or destination without one
  // leaves the stored quote behind (it no longer describes the order).
  let quote: { shipping_quote: string | null; destination?: string } | undefined;
  if (input.quote !== undefined) {
    const stored = await getOrder(trx, merchant, id);
    const next = {
      customer: input.customer ?? stored.customer,
      products: input.products ?? stored.products,
      tags: input.tags ?? stored.tags,
    };
    const quoted = checkOrderQuote(input.quote, merchant.id, quoteFactsOf(next), input.destination, quoteCheck);
    checkQuotedAnswer(quoted.stored, await orderOwnAnswer(trx, merchant.id, next, quoted.destination));
    quote = { shipping_quote: JSON.stringify(quoted.stored), destination: quoted.destination };
  } else if (
    input.customer !== undefined ||
    input.products !== undefined ||
    input.tags !== undefined ||
    input.destination !== undefined
  ) {
    quote = { shipping_quote: null };
  }
  const now = new Date();
  await q.updateOrder(trx, id, {
    ...quote,
    ...(input.merchants_ref !== undefined && { merchants_ref: input.merchants_ref }),
    ...(input.customer !== undefined && { customer: JSON.stringify(input.customer) }),
    ...(input.tags !== undefined && { tags: JSON.stringify(input.tags) }),
    ...(input.destination !== undefined && { destination: input.destination }),
    updated_at: now,
  });
  if (input.products) await q.replaceLines(trx, id, await lineRows(trx, merchant, id, input.products, now));
  return { success: true, order_id: id };
}

export async function getOrder(db: Executor, merchant: Principal, id: string): Promise<Order> {
  const o = await q.findOrder(db, merchant.id, id);
  if (!o) throw notFound("Order");
  return toWire(o);
}

/** The stored order, for its shipping options (another merchant's is 404). */
export const orderForShipping = getOrder;
