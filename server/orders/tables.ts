import type { ColumnType } from "kysely";
import type { OrderCustomer, QuotePayload } from "../../generated/api.ts";
import type { CreatedAt, UpdatedAt } from "../db/columns.ts";

/** jsonb: written as JSON text (node-postgres would turn a JS array into a PostgreSQL array), read as a value. */
type Json<T> = ColumnType<T, string, string>;

/** Customer orders; lines point into the merchant's catalogue and keep what the merchant sent. */
export interface OrdersTables {
  orders: {
    id: string;
    merchant_id: string;
    merchants_ref: string;
    customer: Json<OrderCustomer>;
    tags: Json<string[]>;
    /** `home`, `letter`, a pickup point id, or null. */
    destination: string | null;
    /** The checked quote the order was placed or last modified with (0013); null when none. */
    shipping_quote: ColumnType<QuotePayload | null, string | null | undefined, string | null>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  };
  order_lines: {
    order_id: string;
    position: number;
    product_id: string;
    merchants_id: string;
    name: string | null;
    qty: number;
    unit_price_cents: number;
    weight_g: number;
    length_mm: number | null;
    width_mm: number | null;
    height_mm: number | null;
    letter_allowed: boolean;
  };
}
