// Order operations, keyed by operationId. The keys a sent quote is checked with are read before the order's
// transaction opens (quotes.ts: the embedded database's one connection is the transaction's).
import type { HandlersWith, ValueRules } from "../operations.ts";
import { quoteKeysFor, type Quoter } from "../quotes/quotes.ts";
import { orderProblems } from "./input-checks.ts";
import * as orders from "./orders.ts";

export const orderHandlers = {
  createOrder: async (c, { quoter }) => {
    const quoteCheck = await quoteKeysFor(c.body.quote, quoter);
    return c.idempotent(async (trx) => ({
      status: 201,
      body: await orders.createOrder(trx, c.principal, c.body, quoteCheck),
    }));
  },
  getOrder: async (c) => ({ status: 200, body: await orders.getOrder(c.db, c.principal, c.path.order_id) }),
  modifyOrder: async (c, { quoter }) => {
    const quoteCheck = await quoteKeysFor(c.body.quote, quoter);
    return {
      status: 200,
      body: await c.transaction((trx) => orders.modifyOrder(trx, c.principal, c.path.order_id, c.body, quoteCheck)),
    };
  },
} satisfies HandlersWith<{ quoter: Quoter }>;

/** The value rules of order operations, keyed by operationId (run by the request validator). */
export const orderValueRules = {
  createOrder: ({ body }) => orderProblems(body),
  modifyOrder: ({ body }) => orderProblems(body),
} satisfies ValueRules;
