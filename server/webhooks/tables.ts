import type { ColumnType } from "kysely";
import type { components } from "../../generated/api.ts";
import type { CreatedAt, UpdatedAt } from "../db/columns.ts";

export type EventType = components["schemas"]["WebhookEventType"];
export type FailureClass = components["schemas"]["WebhookFailureClass"];
/** `in_flight`: claimed by a dispatcher; on the wire it is still `pending`. */
export type DeliveryState = "pending" | "in_flight" | "succeeded" | "failed";

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The endpoints' sealed secrets, each with the plain column it replaced (0020; dropped by its contract step). */
export const WEBHOOK_SEALED_COLUMNS = {
  table: "webhook_endpoints",
  columns: {
    secret_sealed: "secret",
    previous_secret_sealed: "previous_secret",
    basic_password_sealed: "basic_password",
  },
} as const;

export interface WebhooksTables {
  /** The transactional outbox: written in the transaction of the change that caused the event. */
  webhook_events: {
    id: string;
    merchant_id: string;
    event_type: EventType;
    /** json (not jsonb): the text is sent exactly as written. */
    payload: ColumnType<unknown, string, never>;
    created_at: CreatedAt;
    /** xid8 of the recording transaction: the feed's order before 0009; kept until the release after it drops it. */
    txid: ColumnType<string, never, never>;
    /** The event's place in its merchant's feed, given after it committed (feed.ts sequence()); null until then. */
    feed_position: ColumnType<string | null, never, string | null>;
    /** The recording request's W3C traceparent when tracing was on (0012): its deliveries' spans link to it. */
    trace_parent: ColumnType<string | null, string | null | undefined, never>;
  };
  /** Each merchant's last feed position given (feed.ts sequence()); never goes back, whatever is pruned. */
  webhook_feed_positions: {
    merchant_id: string;
    last_position: ColumnType<string, string, string>;
  };
  webhook_endpoints: {
    id: string;
    merchant_id: string;
    url: string;
    event_types: ColumnType<EventType[], EventType[], EventType[]>;
    description: ColumnType<string, string | undefined, string>;
    enabled: ColumnType<boolean, boolean | undefined, boolean>;
    batching: ColumnType<boolean, boolean | undefined, boolean>;
    /** The signing secret sealed under the main key (secrets/main-keys.ts; 0020), like the two below. */
    secret_sealed: string;
    previous_secret_sealed: ColumnType<string | null, string | null | undefined, string | null>;
    previous_secret_expires_at: NullableTimestamp;
    /** Write-only on the wire: never selected for list or get. */
    basic_username: ColumnType<string | null, string | null | undefined, string | null>;
    basic_password_sealed: ColumnType<string | null, string | null | undefined, string | null>;
    /** Set when the service disabled the endpoint (a 410 answer, a failure streak); cleared when the merchant changes `enabled`. */
    disabled_reason: ColumnType<string | null, string | null | undefined, string | null>;
    /** The first failed attempt since the last success (or since the merchant last changed `enabled`). */
    failing_since: NullableTimestamp;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  };
  webhook_deliveries: {
    id: string;
    event_id: string;
    endpoint_id: string;
    merchant_id: string;
    status: DeliveryState;
    attempts: ColumnType<number, number | undefined, number>;
    retry_base: ColumnType<number, number | undefined, number>;
    due_at: NullableTimestamp;
    batch_id: ColumnType<string | null, string | null | undefined, string | null>;
    last_attempt_at: NullableTimestamp;
    last_response_status: ColumnType<number | null, number | null | undefined, number | null>;
    last_error: ColumnType<string | null, string | null | undefined, string | null>;
    last_duration_ms: ColumnType<number | null, number | null | undefined, number | null>;
    last_response_excerpt: ColumnType<string | null, string | null | undefined, string | null>;
    last_failure_class: ColumnType<FailureClass | null, FailureClass | null | undefined, FailureClass | null>;
    /** Until when the receiver's Retry-After (on its last answer, a 429 or 503) asked not to be called again. */
    receiver_not_before: NullableTimestamp;
    created_at: CreatedAt;
  };
}
