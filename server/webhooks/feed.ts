// The events feed: what webhooks deliver, readable by cursor, for a merchant whose endpoint missed
// deliveries or who polls instead.
import type { EventFeedPage, FeedEvent, FeedEventType } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor } from "../db/transaction.ts";
import type { QueryOf } from "../shared/contract.ts";
import { decodeFeedCursor, encodeFeedCursor } from "../shared/pagination.ts";
import { formatTimestamp } from "../shared/time.ts";
import { feedEvents } from "./db.ts";

/** Every type but webhook.test, which is addressed to one endpoint, not an event of the merchant's. */
const FEED_TYPES: readonly FeedEventType[] = [
  "inbound_shipment.items_arrived",
  "inbound_shipment.arrived_at_warehouse",
  "inbound_shipment.processed",
  "inbound_shipment.status_changed",
];

export async function listEvents(
  db: Executor,
  merchant: Principal,
  query: QueryOf<"listEvents">,
): Promise<EventFeedPage> {
  const limit = query.limit ?? 50;
  const after = query.cursor === undefined ? undefined : decodeFeedCursor(query.cursor);
  const types = query.event_type?.length ? FEED_TYPES.filter((t) => query.event_type!.includes(t)) : FEED_TYPES;
  const rows = await feedEvents(db, merchant.id, types, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    // The stored payload was validated against the event's schema when it was recorded.
    items: page.map(
      (r) =>
        ({
          event_id: r.id,
          event_type: r.event_type,
          ts: formatTimestamp(r.created_at),
          payload: JSON.parse(r.payload_json) as FeedEvent["payload"],
        }) as FeedEvent,
    ),
    // At the end of the feed the position stays where the caller is, so that it can poll from there.
    next_cursor: last ? encodeFeedCursor({ txid: last.txid, id: last.id }) : (query.cursor ?? null),
    has_more: rows.length > limit,
  };
}
