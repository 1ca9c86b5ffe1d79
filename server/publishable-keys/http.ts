// Publishable key operations, keyed by operationId. A change is announced to every instance (cache-signal), so
// that a revoked key stops working everywhere within a second.
import { announceCacheChange } from "../db/cache-signal.ts";
import type { Handlers, ValueRules } from "../operations.ts";
import { originProblems } from "./input-checks.ts";
import * as keys from "./keys.ts";

export const publishableKeyHandlers = {
  listPublishableKeys: async (c) => ({ status: 200, body: await keys.listKeys(c.db, c.principal) }),
  createPublishableKey: (c) =>
    c.idempotent(async (trx) => {
      const body = await keys.createKey(trx, c.principal, c.body);
      await announceCacheChange(trx);
      return { status: 201, body };
    }),
  revokePublishableKey: async (c) => ({
    status: 200,
    body: await c.transaction(async (trx) => {
      const body = await keys.revokeKey(trx, c.principal, c.path.key_id);
      await announceCacheChange(trx);
      return body;
    }),
  }),
} satisfies Handlers;

/** The value rules of publishable key operations, keyed by operationId (run by the request validator). */
export const publishableKeyValueRules = {
  createPublishableKey: ({ body }) => originProblems(body),
} satisfies ValueRules;
