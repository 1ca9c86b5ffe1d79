// The demo merchant's publishable key, for the demo checkout page (/demo/checkout) that `npm start` serves: public
// like every publishable key, and like the demo merchant's secret in the README.
import type { Principal } from "../accounts/domain.ts";
import type { Tx } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";
import * as q from "./db.ts";

export const DEMO_PUBLISHABLE_KEY = "pk_demoCheckoutPickerKey00000000000";

export async function seedDemoPublishableKey(trx: Tx, merchant: Principal): Promise<void> {
  await q.insertKey(
    trx,
    {
      id: newId(),
      merchant_id: merchant.id,
      token: DEMO_PUBLISHABLE_KEY,
      name: "Demo checkout page",
      origins: ["http://localhost:3000", "http://127.0.0.1:3000"],
      created_at: new Date(),
    },
    true,
  );
}
