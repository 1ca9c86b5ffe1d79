// Shipping options, and the merchant's shipping settings and price lists, keyed by operationId.
import { announceCacheChange } from "../db/cache-signal.ts";
import type { Tx } from "../db/transaction.ts";
import type { HandlersWith, ValueRules } from "../operations.ts";
import { entityTag } from "../shared/entity-tags.ts";
import { normalisePostalCode } from "../shared/postal-codes.ts";
import { queryDefault } from "../shared/spec-schemas.ts";
import { quoteFacts } from "../quotes/format.ts";
import { withQuotes, type Quoter } from "../quotes/quotes.ts";
import type { Clock } from "../shared/clock.ts";
import { deliverySettingsProblems, previewDeliveryDates } from "./delivery-dates.ts";
import * as lists from "./price-lists.ts";
import * as settings from "./settings.ts";
import { validatePriceList } from "./rules-validation.ts";
import {
  genericShippingOptions,
  orderShippingOptions,
  previewProblems,
  previewShippingOptions,
  shippingQueryProblems,
  type Caches,
} from "./shipping-options.ts";

/**
 * A change to settings or price lists: announced to the other instances in its transaction, and the
 * merchant's cached configuration forgotten here once it is committed (or not).
 */
const announcing =
  <T>(work: (trx: Tx) => Promise<T>) =>
  async (trx: Tx) => {
    const result = await work(trx);
    await announceCacheChange(trx);
    return result;
  };

// A preview's customer is the one GET /shipping_options asks about: without a country, that query's default.
const DEFAULT_COUNTRY = queryDefault("getShippingOptions", "country");

/** A whole resource with its version, for If-Match on the next replace. */
const tagged = <T>(body: T) => ({ status: 200 as const, body, headers: { ETag: entityTag(body) } });

/** Waits for a change's transaction, then forgets the merchant's cached configuration here, committed or not. */
const changing = async <T>(caches: Caches, merchantId: string, commit: Promise<T>): Promise<T> => {
  try {
    return await commit;
  } finally {
    caches.shippingConfig.forget(merchantId);
  }
};

export const shippingHandlers = {
  getShippingOptions: async (c, { caches, quoter, clock }) => {
    const query = {
      postalcode: normalisePostalCode(c.query.country, c.query.postalcode),
      country: c.query.country,
      weight: c.query.weight,
      cart_value: c.query.cart_value,
      item_count: c.query.item_count,
      tags: c.query.tags,
      explain: c.query.explain,
      distances: c.principal.publishable !== undefined,
    };
    const now = clock.now();
    const body = await genericShippingOptions(c.db, caches, c.principal, query, now);
    // A checkout page's answer: every price signed, for the shop's backend to check what the browser sends back.
    if (!c.principal.publishable) return { status: 200, body };
    return { status: 200, body: await withQuotes(body, c.principal.id, quoteFacts(query), quoter, now) };
  },
  getOrderShippingOptions: async (c, { caches, clock }) => ({
    status: 200,
    body: await orderShippingOptions(c.db, caches, c.principal, c.path.order_id, c.query.explain, clock.now()),
  }),
  previewShippingOptions: async (c, { caches, clock }) => ({
    status: 200,
    body: await previewShippingOptions(
      c.db,
      caches,
      c.principal,
      {
        ...c.body,
        country: c.body.country ?? DEFAULT_COUNTRY,
        postalcode: normalisePostalCode(c.body.country ?? DEFAULT_COUNTRY, c.body.postalcode),
      },
      clock.now(),
    ),
  }),

  previewDeliveryDates: async (c, { clock }) => ({
    status: 200,
    body: previewDeliveryDates(c.body, c.body.country ?? DEFAULT_COUNTRY, clock.now()),
  }),

  getShippingSettings: async (c) => tagged(await settings.getSettings(c.db, c.principal)),
  replaceShippingSettings: async (c, { caches }) =>
    tagged(
      await changing(
        caches,
        c.principal.id,
        c.transaction(announcing((trx) => settings.replaceSettings(trx, c.principal, c.body, c.ifMatch))),
      ),
    ),

  listPriceLists: async (c) => ({ status: 200, body: await lists.listPriceLists(c.db, c.principal) }),
  getPriceList: async (c) => tagged(await lists.getPriceList(c.db, c.principal, c.path.price_list_id)),
  createPriceList: (c, { caches }) =>
    changing(
      caches,
      c.principal.id,
      c.idempotent(
        announcing(async (trx) => ({ status: 201, body: await lists.createPriceList(trx, c.principal, c.body) })),
      ),
    ),
  replacePriceList: async (c, { caches }) =>
    tagged(
      await changing(
        caches,
        c.principal.id,
        c.transaction(
          announcing((trx) => lists.replacePriceList(trx, c.principal, c.path.price_list_id, c.body, c.ifMatch)),
        ),
      ),
    ),
  deletePriceList: async (c, { caches }) => ({
    status: 200,
    body: await changing(
      caches,
      c.principal.id,
      c.transaction(announcing((trx) => lists.deletePriceList(trx, c.principal, c.path.price_list_id))),
    ),
  }),
} satisfies HandlersWith<{ caches: Caches; quoter: Quoter; clock: Clock }>;

/** The value rules of shipping operations, keyed by operationId (run by the request validator). */
export const shippingValueRules = {
  getShippingOptions: ({ query }) => shippingQueryProblems(query, DEFAULT_COUNTRY),
  previewShippingOptions: ({ body }) => previewProblems(body, DEFAULT_COUNTRY),
  replaceShippingSettings: ({ body }) => deliverySettingsProblems(body, "/body"),
  previewDeliveryDates: ({ body }) => deliverySettingsProblems(body, "/body"),
  createPriceList: ({ body }) => validatePriceList(body, "/body"),
  replacePriceList: ({ body }) => validatePriceList(body, "/body"),
} satisfies ValueRules;
