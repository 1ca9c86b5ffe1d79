// The events feed: what webhooks deliver, readable by cursor, for a merchant whose endpoint missed
// deliveries or who polls instead.
import type { EventFeedPage, FeedEvent, FeedEventType } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Db } from "../db/database.ts";
import type { ValidatedQuery } from "../shared/contract.ts";
import { decodeFeedCursor, encodeFeedCursor } from "../shared/pagination.ts";
import { formatTimestamp } from "../shared/time.ts";
import { checkHistory } from "./feed-history.ts";
import { eventAtPosition, feedEvents, feedPositionAtTxid, sequenceFeed } from "./feed.db.ts";

/** Every type but webhook.test, which is addressed to one endpoint, not an event of the merchant's. */
const FEED_TYPES = Object.keys({
  "inbound_shipment.items_arrived": true,
  "inbound_shipment.arrived_at_warehouse": true,
  "inbound_shipment.processed": true,
  "inbound_shipment.status_changed": true,
  "webhook_endpoint.disabled": true,
} satisfies Record<FeedEventType, true>) as FeedEventType[];

/**
 * Events are shown once they have a position, given after they committed: only this merchant's own writes, of
 * this database, are ever waited for, and never longer than it takes them to commit.
 */
export async function listEvents(
  db: Db,
  merchant: Principal,
  query: ValidatedQuery<"listEvents">,
): Promise<EventFeedPage> {
  const { limit } = query;
  const from = query.cursor === undefined ? { position: "0" } : decodeFeedCursor(query.cursor);
  await sequenceFeed(db, merchant.id);
  if ("mark" in from) await checkHistory(db, merchant.id, from.position, from.mark!);
  const after = "position" in from ? from.position : await feedPositionAtTxid(db, merchant.id, from.txid);
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
    // At the end of the feed the position stays where the caller is, so that it can poll from there; every
    // cursor names the event at its position (feed-history.ts), a cursor without one gets it here.
    next_cursor: last
      ? encodeFeedCursor(last.feed_position, last.id)
      : query.cursor === undefined
        ? null
        : encodeFeedCursor(after, "mark" in from ? from.mark : await eventAtPosition(db, merchant.id, after)),
    has_more: rows.length > limit,
  };
}
