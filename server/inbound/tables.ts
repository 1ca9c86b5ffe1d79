import type { ColumnType, Generated } from "kysely";
import type { components } from "../../generated/api.ts";
import type { CreatedAt, UpdatedAt } from "../db/columns.ts";

type Status = components["schemas"]["InboundShipmentStatus"];
export type RecordedBy = components["schemas"]["RecordedBy"];

export interface InboundTables {
  inbound_shipments: {
    id: string;
    merchant_id: string;
    merchants_ref: string;
    sender_name: string;
    status: Status;
    expected_at_wh: ColumnType<string | null, string | null | undefined, string | null>;
    /** The warehouse asked to close it; it closes by itself once the lines match. */
    closing: ColumnType<boolean, boolean | undefined, boolean>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  };
  inbound_lines: {
    shipment_id: string;
    product_id: string;
    position: number;
    qty: number;
    purchase_price_cents: number | null;
  };
  inbound_arrivals: {
    id: Generated<string>;
    shipment_id: string;
    product_id: string;
    ts: ColumnType<Date, Date | string, never>;
    change: number;
    /** The operator's id, or the warehouse user's (recorded_by says which). */
    operator_id: string;
    /** Who recorded it, as it was then; null on rows of the release before 0017, all by W-... operators. */
    recorded_by: ColumnType<RecordedBy | null, RecordedBy | undefined, never>;
    created_at: CreatedAt;
  };
  inbound_status_history: {
    id: Generated<string>;
    shipment_id: string;
    from_status: Status | null;
    to_status: Status;
    actor: string;
    created_at: CreatedAt;
  };
  inbound_problems: {
    id: string;
    shipment_id: string;
    type: components["schemas"]["ProblemType"];
    merchants_id: string | null;
    description: string;
    resolved: ColumnType<boolean, boolean | undefined, boolean>;
    created_at: CreatedAt;
    resolved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  };
}
