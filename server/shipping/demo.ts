// The demo merchant's shipping settings and price lists (prices include Finnish VAT, 25.5 % since 2024-09).
import type { PriceListInput, ShippingSettingsInput } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Tx } from "../db/transaction.ts";
import * as q from "./db.ts";
import { createPriceList, replacePriceList } from "./price-lists.ts";
import { replaceSettings } from "./settings.ts";

export const DEMO_SETTINGS: ShippingSettingsInput = {
  letter: { enabled: true, max_weight_g: 2000 },
  home: { enabled: true, max_weight_g: 30000 },
  pickup: { enabled: true, max_weight_g: 35000 },
  countries: ["FI"],
  pickup_points_limit: 10,
};

const VAT = 25.5;
const weightOver = (grams: number) => ({ fact: "order.total_weight" as const, op: ">" as const, value: grams });
const freeFrom100 = {
  description: "Free delivery for orders of 100 EUR or more",
  criteria: [{ fact: "order.total_eur" as const, op: ">=" as const, value: 100 }],
  adjust: "set" as const,
  amount: 0,
};

export const DEMO_PRICE_LISTS: PriceListInput[] = [
  {
    name: "Letter",
    method: "letter",
    currency: "EUR",
    tax: VAT,
    fallback_price: 2.9,
    pricing_rules: [{ description: "Over 500 g", criteria: [weightOver(500)], price: 3.9 }],
    modification_rules: [],
  },
  {
    name: "Home delivery",
    method: "home",
    currency: "EUR",
    tax: VAT,
    fallback_price: 6.9,
    pricing_rules: [
      { description: "Heavy parcels", criteria: [weightOver(10000)], price: 12.9 },
      { description: "Up to 2 kg", criteria: [{ fact: "order.total_weight", op: "<=", value: 2000 }], price: 5.9 },
    ],
    modification_rules: [freeFrom100],
  },
  {
    name: "Pickup",
    method: "pickup",
    currency: "EUR",
    tax: VAT,
    fallback_price: 4.9,
    pricing_rules: [
      { description: "Heavy parcels", criteria: [weightOver(10000)], price: 7.9 },
      {
        description: "Posti points are cheaper",
        criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }],
        price: 3.9,
      },
      {
        description: "DB Schenker points",
        criteria: [{ fact: "pup.branch", op: "==", value: "fi.db_schenker" }],
        price: 4.5,
      },
    ],
    modification_rules: [
      {
        description: "Half price for VIP customers",
        criteria: [{ fact: "order.tags", op: "contains", value: "vip" }],
        adjust: "multiply",
        amount: 0.5,
      },
      freeFrom100,
    ],
  },
];

/** Sets the demo settings and price lists, replacing the demo merchant's own. */
export async function seedDemoShipping(trx: Tx, merchant: Principal): Promise<void> {
  await replaceSettings(trx, merchant, DEMO_SETTINGS);
  const existing = await q.listPriceLists(trx, merchant.id);
  for (const list of DEMO_PRICE_LISTS) {
    const same = existing.find((l) => l.method === list.method);
    if (same) await replacePriceList(trx, merchant, same.id, list);
    else await createPriceList(trx, merchant, list);
  }
}
