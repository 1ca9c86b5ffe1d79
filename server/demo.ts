import type { Db } from "./db/database.ts";
import { inTransaction } from "./db/transaction.ts";
import { countMerchants } from "./accounts/db.ts";
import { provisionAccount } from "./accounts/domain.ts";
import { loadDemoDirectory } from "./pickup-points/demo.ts";
import { seedDemoShipping } from "./shipping/demo.ts";

// Public on purpose: the README's first request uses them. SEED_DEMO=false keeps them out.
export const DEMO = {
  merchantId: "demo.example.com",
  merchantSecret: "demo-secret-change-me",
  operatorId: "demo-warehouse",
  operatorSecret: "demo-warehouse-secret",
};

/** The demo accounts, the demo pickup point directory and postal codes, and the demo merchant's shipping prices. */
export async function seedDemo(db: Db): Promise<void> {
  await provisionAccount(db, "merchant", DEMO.merchantId, DEMO.merchantSecret);
  await provisionAccount(db, "operator", DEMO.operatorId, DEMO.operatorSecret);
  await inTransaction(db, async (trx) => {
    await loadDemoDirectory(trx);
    await seedDemoShipping(trx, { role: "merchant", id: DEMO.merchantId, name: `M-${DEMO.merchantId}` });
  });
}

/** Seeds only an empty database, so a real deployment's accounts are never touched. */
export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  if ((await countMerchants(db)) > 0) return false;
  await seedDemo(db);
  return true;
}

export function exampleRequest(baseUrl: string): string {
  return [
    `Try it (demo merchant M-${DEMO.merchantId}):`,
    `  curl -s -u 'M-${DEMO.merchantId}:${DEMO.merchantSecret}' -H 'Content-Type: application/json' \\`,
    `    -d '{"merchants_ref":"PO-1","sender_name":"Acme Supplies Oy","products":[{"merchants_id":"SKU-1","name":"Blue T-shirt M","gtin":"6410405082657","qty":10}]}' \\`,
    `    ${baseUrl}/inbound_shipments/_create`,
    `Shipping options with fees and the nearest pickup points for a customer in Kaarina:`,
    `  curl -s -u 'M-${DEMO.merchantId}:${DEMO.merchantSecret}' '${baseUrl}/shipping_options?postalcode=20780&country=FI'`,
    `Warehouse operator: W-${DEMO.operatorId} / ${DEMO.operatorSecret}. Docs: ${baseUrl.replace(/\/2015-01-01$/, "")}/docs`,
  ].join("\n");
}
