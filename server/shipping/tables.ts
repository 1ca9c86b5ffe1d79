import type { ColumnType } from "kysely";
import type {
  CountryCode,
  CurrencyCode,
  DeliveryTimesByMethod,
  ModificationRule,
  PricingRule,
  ShippingMethodType,
} from "../../generated/api.ts";
import type { CreatedAt, UpdatedAt } from "../db/columns.ts";

/** jsonb: written as JSON text (node-postgres would turn a JS array into a PostgreSQL array), read as a value. */
type Json<T> = ColumnType<T, string, string>;

/** Each merchant's shipping settings (absent row: the defaults) and price lists, at most one per method. */
export interface ShippingTables {
  shipping_settings: {
    merchant_id: string;
    letter_enabled: boolean;
    letter_max_weight_g: number;
    home_enabled: boolean;
    home_max_weight_g: number | null;
    pickup_enabled: boolean;
    pickup_max_weight_g: number | null;
    /** Pickup points farther from the customer are not offered (0022; default 50). */
    pickup_max_distance_km: ColumnType<number, number | undefined, number>;
    countries: CountryCode[];
    pickup_points_limit: number;
    /** Null: no delivery estimates (the release before 0019 wrote none). */
    time_zone: string | null;
    delivery_times: ColumnType<DeliveryTimesByMethod | null, string | null, string | null>;
    updated_at: UpdatedAt;
  };
  price_lists: {
    id: string;
    merchant_id: string;
    name: string;
    method: ShippingMethodType;
    currency: CurrencyCode;
    tax: number;
    fallback_price_cents: number;
    pricing_rules: Json<PricingRule[]>;
    modification_rules: Json<ModificationRule[]>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  };
}
