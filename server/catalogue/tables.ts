import type { CreatedAt, UpdatedAt } from "../db/columns.ts";

/** A merchant's products, keyed by the merchant's own code (`merchants_id`); shared by every resource. */
export interface CatalogueTables {
  products: {
    id: string;
    merchant_id: string;
    merchants_id: string;
    name: string;
    gtin: string;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  };
}
