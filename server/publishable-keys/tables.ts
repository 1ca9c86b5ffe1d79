import type { ColumnType } from "kysely";
import type { CreatedAt } from "../db/columns.ts";

/** Merchants' keys for checkout pages in browsers; `token` is public by design (it is in the shop's HTML). */
export interface PublishableKeysTables {
  publishable_keys: {
    id: string;
    merchant_id: string;
    token: string;
    name: string;
    /** jsonb: written as JSON text, read as the array. */
    origins: ColumnType<string[], string, string>;
    created_at: CreatedAt;
    revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  };
}
