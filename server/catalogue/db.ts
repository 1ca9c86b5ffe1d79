// The merchant's product catalogue, keyed by the merchant's own code. Inbound shipments and orders
// both create and update products through here.
import type { Executor } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";

export interface CatalogueLine {
  merchants_id: string;
  name?: string;
  gtin?: string;
}

/**
 * Creates missing products and updates name/gtin where given. Grouped by which fields were given,
 * so an omitted name never overwrites the catalogue. Returns merchants_id -> product id.
 */
export async function upsertProducts(db: Executor, merchantId: string, lines: CatalogueLine[], now: Date): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const groups = new Map<string, CatalogueLine[]>();
  for (const l of lines) {
    const k = `${l.name !== undefined}:${l.gtin !== undefined}`;
    groups.set(k, [...(groups.get(k) ?? []), l]);
  }
  for (const [k, group] of groups) {
    const [hasName, hasGtin] = k.split(":").map((x) => x === "true");
    const rows = await db
      .insertInto("products")
      .values(group.map((l) => ({
        id: newId(now.getTime()),
        merchant_id: merchantId,
        merchants_id: l.merchants_id,
        name: l.name ?? "",
        gtin: l.gtin ?? "",
        created_at: now,
        updated_at: now,
      })))
      .onConflict((oc) =>
        oc.columns(["merchant_id", "merchants_id"]).doUpdateSet((eb) => ({
          name: hasName ? eb.ref("excluded.name") : eb.ref("products.name"),
          gtin: hasGtin ? eb.ref("excluded.gtin") : eb.ref("products.gtin"),
          updated_at: hasName || hasGtin ? eb.ref("excluded.updated_at") : eb.ref("products.updated_at"),
        })),
      )
      .returning(["id", "merchants_id"])
      .execute();
    for (const r of rows) ids.set(r.merchants_id, r.id);
  }
  return ids;
}
