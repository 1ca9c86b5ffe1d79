import type { Db } from "./db/database.ts";
import { inTransaction } from "./db/transaction.ts";
import { countMerchants, findSecretHash } from "./accounts/db.ts";
import { provisionAccount } from "./accounts/domain.ts";
import { provisionPortalUser } from "./portal/users.ts";
import { loadDemoDirectory } from "./pickup-points/demo.ts";
import { seedDemoShipping } from "./shipping/demo.ts";
import { seedDemoShipment } from "./inbound/demo.ts";
import { seedDemoPublishableKey } from "./publishable-keys/demo.ts";
import { BASE_PATH } from "../generated/base-path.ts";

// Public on purpose: the README's first request uses them. SEED_DEMO=false keeps them out.
export const DEMO = {
  merchantId: "demo.example.com",
  merchantSecret: "demo-secret-change-me",
  operatorId: "demo-warehouse",
  operatorSecret: "demo-warehouse-secret",
  portalEmail: "staff@demo.example.com",
  portalPassword: "demo-portal-password",
};

/** The demo accounts and portal user, the pickup point directory and postal codes, the demo merchant's prices and a shipment. */
export async function seedDemo(db: Db): Promise<void> {
  await provisionAccount(db, "merchant", DEMO.merchantId, DEMO.merchantSecret);
  await provisionAccount(db, "operator", DEMO.operatorId, DEMO.operatorSecret);
  await provisionPortalUser(db, DEMO.merchantId, DEMO.portalEmail, DEMO.portalPassword, "admin");
  await inTransaction(db, async (trx) => {
    await loadDemoDirectory(trx);
    const merchant = { role: "merchant" as const, id: DEMO.merchantId, name: `M-${DEMO.merchantId}` };
    await seedDemoShipping(trx, merchant);
    await seedDemoPublishableKey(trx, merchant);
    await seedDemoShipment(trx, merchant, { role: "operator", id: DEMO.operatorId, name: `W-${DEMO.operatorId}` });
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
    `Warehouse operator: W-${DEMO.operatorId} / ${DEMO.operatorSecret}`,
    `Portal sign-in: ${DEMO.portalEmail} / ${DEMO.portalPassword}`,
  ].join("\n");
}

/** The demo's state at a start: just seeded, left from an earlier start, or not there (a real deployment). */
export type DemoState = "seeded" | "present" | "absent";

export async function demoState(db: Db, seededNow: boolean): Promise<DemoState> {
  if (seededNow) return "seeded";
  return (await findSecretHash(db, "merchant", DEMO.merchantId)) === undefined ? "absent" : "present";
}

/**
 * Printed on every start, not only the first: where each part of the service is, and while the demo merchant exists
 * a request that works (an operator who restarts should not have to find the first start's output).
 */
export function startBanner(baseUrl: string, demo: DemoState, demoPages: boolean): string {
  const site = baseUrl.endsWith(BASE_PATH) ? baseUrl.slice(0, -BASE_PATH.length) : baseUrl;
  const lines = [
    `Logistics API: ${baseUrl}`,
    `Docs: ${site}/docs`,
    `Merchant portal: ${site}/portal/`,
    `Warehouse station: ${site}/station`,
  ];
  if (demoPages) lines.push(`Checkout picker in a demo shop page: ${site}/demo/checkout`);
  if (demo === "seeded") lines.push("", "Demo data seeded.", exampleRequest(baseUrl));
  if (demo === "present") lines.push("", "Demo data (from the first start):", exampleRequest(baseUrl));
  return `\n${lines.join("\n")}\n`;
}
