import type { Db } from "./db/database.ts";
import { countMerchants } from "./accounts/db.ts";
import { provisionAccount } from "./accounts/domain.ts";

// Public on purpose: the README's first request uses them. SEED_DEMO=false keeps them out.
export const DEMO = {
  merchantId: "demo.example.com",
  merchantSecret: "demo-secret-change-me",
  operatorId: "demo-warehouse",
  operatorSecret: "demo-warehouse-secret",
};

export async function seedDemo(db: Db): Promise<void> {
  await provisionAccount(db, "merchant", DEMO.merchantId, DEMO.merchantSecret);
  await provisionAccount(db, "operator", DEMO.operatorId, DEMO.operatorSecret);
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
    `Warehouse operator: W-${DEMO.operatorId} / ${DEMO.operatorSecret}. Docs: ${baseUrl.replace(/\/2015-01-01$/, "")}/docs`,
  ].join("\n");
}
