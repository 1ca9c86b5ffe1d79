// Order operations, keyed by operationId.
import type { HandlersWith } from "../operations.ts";
import type { Quoter } from "../quotes/quotes.ts";
import * as orders from "./orders.ts";

export const orderHandlers = {
  createOrder: (c, { quoter }) =>
    c.idempotent(async (trx) => ({
      status: 201,
      body: await orders.createOrder(trx, c.principal, c.body, quoter),
    })),
  getOrder: async (c) => ({ status: 200, body: await orders.getOrder(c.db, c.principal, c.path.order_id) }),
  modifyOrder: async (c, { quoter }) => ({
    status: 200,
    body: await c.transaction((trx) => orders.modifyOrder(trx, c.principal, c.path.order_id, c.body, quoter)),
  }),
} satisfies HandlersWith<{ quoter: Quoter }>;
