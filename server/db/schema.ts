// Table shapes for Kysely. These describe storage, not the wire: wire types come from generated/.
import type { ColumnType, Generated } from "kysely";

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface MerchantsTable {
  id: string;
  secret_hash: string;
  created_at: CreatedAt;
}

export interface OperatorsTable {
  id: string;
  secret_hash: string;
  created_at: CreatedAt;
}

export interface ProductsTable {
  id: string;
  merchant_id: string;
  merchants_id: string;
  name: string;
  gtin: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface InboundShipmentsTable {
  id: string;
  merchant_id: string;
  merchants_ref: string;
  sender_name: string;
  status: string;
  expected_at_wh: ColumnType<string | null, string | null | undefined, string | null>;
  /** The warehouse asked to close it; it closes by itself once the lines match. */
  closing: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface InboundLinesTable {
  shipment_id: string;
  product_id: string;
  position: number;
  qty: number;
  purchase_price_cents: number | null;
}

export interface InboundArrivalsTable {
  id: Generated<string>;
  shipment_id: string;
  product_id: string;
  ts: ColumnType<Date, Date | string, never>;
  change: number;
  operator_id: string;
  created_at: CreatedAt;
}

export interface InboundStatusHistoryTable {
  id: Generated<string>;
  shipment_id: string;
  from_status: string | null;
  to_status: string;
  actor: string;
  created_at: CreatedAt;
}

export interface InboundProblemsTable {
  id: string;
  shipment_id: string;
  type: string;
  merchants_id: string | null;
  description: string;
  resolved: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  resolved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface IdempotencyKeysTable {
  principal: string;
  key: string;
  operation: string;
  request_hash: string;
  response_status: number;
  /** The first response's JSON text, replayed as is. */
  response_body: string;
  /** Reset when an expired key is reclaimed. */
  created_at: UpdatedAt;
}

export interface WebhookEventsTable {
  id: string;
  merchant_id: string;
  event_type: string;
  payload: ColumnType<unknown, string, never>;
  created_at: CreatedAt;
}

export interface Database {
  merchants: MerchantsTable;
  operators: OperatorsTable;
  products: ProductsTable;
  inbound_shipments: InboundShipmentsTable;
  inbound_lines: InboundLinesTable;
  inbound_arrivals: InboundArrivalsTable;
  inbound_status_history: InboundStatusHistoryTable;
  inbound_problems: InboundProblemsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_events: WebhookEventsTable;
}
