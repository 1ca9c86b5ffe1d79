import type { ColumnType } from "kysely";
import type { CreatedAt } from "../db/columns.ts";

/** The sealed secret of a callback token: never stored plain (`app_secret` is no column; at-rest.ts skips it). */
export const SHOPIFY_SEALED_COLUMNS = {
  table: "carrier_service_tokens",
  columns: { app_secret_sealed: "app_secret" },
} as const;

/** Merchants' Shopify callback tokens (the secret part of the carrier service URL), kept as their SHA-256. */
export interface ShopifyTables {
  carrier_service_tokens: {
    id: string;
    merchant_id: string;
    token_sha256: string;
    token_hint: string;
    name: string;
    pickup_rates: number;
    /** jsonb: written as JSON text, read as the array. */
    tag_properties: ColumnType<string[], string, string>;
    app_secret_sealed: string | null;
    created_at: CreatedAt;
    revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  };
}
