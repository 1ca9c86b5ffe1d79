// The public quote keys, keyed by operationId.
import type { HandlersWith } from "../operations.ts";
import type { Quoter } from "./quotes.ts";

export const quoteHandlers = {
  getQuoteKeys: async (_c, { quoter }) => ({
    status: 200,
    body: { keys: await quoter.keys.published() },
    headers: { "Cache-Control": "public, max-age=3600" },
  }),
} satisfies HandlersWith<{ quoter: Quoter }>;
