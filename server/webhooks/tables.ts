import type { ColumnType } from "kysely";
import type { webhooks } from "../../generated/api.ts";
import type { CreatedAt } from "../db/columns.ts";

export type EventType = keyof webhooks;

export interface WebhooksTables {
  /** The transactional outbox: written in the transaction of the change that caused the event. */
  webhook_events: {
    id: string;
    merchant_id: string;
    event_type: EventType;
    payload: ColumnType<unknown, string, never>;
    created_at: CreatedAt;
  };
}
