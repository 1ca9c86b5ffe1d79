import type { ColumnType } from "kysely";
import type { components } from "../../generated/api.ts";
import type { CreatedAt, UpdatedAt } from "../db/columns.ts";

type CarrierInfoMap = components["schemas"]["CarrierInfoMap"];
/** jsonb: written as JSON text (node-postgres would turn a JS array into a PostgreSQL array), read as a value. */
type Json<T> = ColumnType<T, string, string>;

/** The pickup point directory and the postal-code locations customers are placed at. Shared by every merchant. */
export interface PickupPointsTables {
  pickup_points: {
    id: string;
    name: string;
    address: string;
    postalcode: string;
    city: string;
    country: components["schemas"]["CountryCode"];
    lat: number;
    lon: number;
    branch: string;
    location_info: string | null;
    carrier_info: Json<CarrierInfoMap>;
    /** Normalised from carrier_info's types (kind.ts) or given by the import (0023_pickup_point_kind.ts). */
    kind: components["schemas"]["PickupPointKind"];
    /** Generated from lat/lon: the unit vector the nearest-point index orders by (0002_shipping.ts). */
    position: ColumnType<string, never, never>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  };
  postal_code_locations: {
    country: components["schemas"]["CountryCode"];
    postalcode: string;
    place_name: string;
    admin_name1: string | null;
    admin_code1: string | null;
    admin_name2: string | null;
    admin_code2: string | null;
    admin_name3: string | null;
    admin_code3: string | null;
    lat: number;
    lon: number;
    accuracy: number | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  };
}
