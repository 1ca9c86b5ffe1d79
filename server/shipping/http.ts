// Shipping options, and the merchant's shipping settings and price lists, keyed by operationId.
import type { Db } from "../db/database.ts";
import type { Handlers } from "../http/registry.ts";
import { entityTag } from "../shared/entity-tags.ts";
import { forgetConfig } from "./merchant-config.ts";
import * as lists from "./price-lists.ts";
import * as settings from "./settings.ts";
import { genericShippingOptions, orderShippingOptions } from "./shipping-options.ts";

/** A change to settings or price lists, committed (or not): the merchant's cached configuration is stale. */
async function changing<T>(c: { db: Db; principal: { id: string } }, commit: Promise<T>): Promise<T> {
  try {
    return await commit;
  } finally {
    forgetConfig(c.db, c.principal.id);
  }
}

/** A whole resource with its version, for If-Match on the next replace. */
const tagged = <T>(body: T) => ({ status: 200 as const, body, headers: { ETag: entityTag(body) } });

export const shippingHandlers = {
  getShippingOptions: async (c) => ({
    status: 200,
    body: await genericShippingOptions(c.db, c.principal, { postalcode: c.query.postalcode, country: c.query.country ?? "FI", weight: c.query.weight }),
  }),
  getOrderShippingOptions: async (c) => ({ status: 200, body: await orderShippingOptions(c.db, c.principal, c.path.order_id) }),

  getShippingSettings: async (c) => tagged(await settings.getSettings(c.db, c.principal)),
  replaceShippingSettings: async (c) => tagged(await changing(c, c.transaction((trx) => settings.replaceSettings(trx, c.principal, c.body, c.ifMatch)))),

  listPriceLists: async (c) => ({ status: 200, body: await lists.listPriceLists(c.db, c.principal) }),
  getPriceList: async (c) => tagged(await lists.getPriceList(c.db, c.principal, c.path.price_list_id)),
  createPriceList: (c) => changing(c, c.idempotent(async (trx) => ({ status: 201, body: await lists.createPriceList(trx, c.principal, c.body) }))),
  replacePriceList: async (c) => tagged(await changing(c, c.transaction((trx) => lists.replacePriceList(trx, c.principal, c.path.price_list_id, c.body, c.ifMatch)))),
  deletePriceList: async (c) => ({
    status: 200, body: await changing(c, c.transaction((trx) => lists.deletePriceList(trx, c.principal, c.path.price_list_id))),
  }),
} satisfies Handlers;
