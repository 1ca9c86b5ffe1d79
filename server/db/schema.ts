// Table shapes for Kysely, composed from each resource's own tables file. These describe storage, not
// the wire: wire types come from generated/. Adding a table: its resource's tables.ts and a migration.
import type { AccountsTables } from "../accounts/tables.ts";
import type { CatalogueTables } from "../catalogue/tables.ts";
import type { IdempotencyTables } from "../idempotency/tables.ts";
import type { InboundTables } from "../inbound/tables.ts";
import type { OrdersTables } from "../orders/tables.ts";
import type { PickupPointsTables } from "../pickup-points/tables.ts";
import type { PortalTables } from "../portal/tables.ts";
import type { PublishableKeysTables } from "../publishable-keys/tables.ts";
import type { QuotesTables } from "../quotes/tables.ts";
import type { ShippingTables } from "../shipping/tables.ts";
import type { ShopifyTables } from "../shopify/tables.ts";
import type { WarehouseTables } from "../warehouse/tables.ts";
import type { WebhooksTables } from "../webhooks/tables.ts";

export interface Database
  extends
    AccountsTables,
    CatalogueTables,
    IdempotencyTables,
    InboundTables,
    OrdersTables,
    PickupPointsTables,
    PortalTables,
    PublishableKeysTables,
    QuotesTables,
    ShippingTables,
    ShopifyTables,
    WarehouseTables,
    WebhooksTables {}
