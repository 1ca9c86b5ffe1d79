// Opaque cursor pagination over (timestamp, id) keysets, for every list operation.
import { invalid } from "./errors.ts";

export interface Position {
  at: Date;
  id: string;
}

// The cursor keeps the millisecond position of the last row: timestamps are written with JS Dates. A list with
// several orders names the order in its cursors (`order`), so that a cursor is refused by every other order; the
// default order's cursors carry no name (those issued before lists had orders keep working).
export function encodeCursor(p: Position, order?: string): string {
  return Buffer.from(`${order === undefined ? "" : `${order}:`}${p.at.getTime()}.${p.id}`).toString("base64url");
}

export function decodeCursor(cursor: string, order?: string): Position {
  const m = /^(?:([a-z_-]{1,40}):)?(\d{1,15})\.([0-9a-f]{24})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw invalid([{ path: "/query/cursor", message: "not a cursor this service returned", code: "cursor" }]);
  if (m[1] !== order) {
    throw invalid([
      {
        path: "/query/cursor",
        message: "a cursor of another order: pass the sort it was issued with, or start again without a cursor",
        code: "cursor",
      },
    ]);
  }
  return { at: new Date(Number(m[2])), id: m[3]! };
}

/**
 * Cuts rows fetched with `limit + 1` into a page: the extra row only tells that there is more.
 */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  positionOf: (r: R) => Position,
  toItem: (r: R) => T,
  order?: string,
): { items: T[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toItem),
    next_cursor: rows.length > limit && last ? encodeCursor(positionOf(last), order) : null,
  };
}

/**
 * Where a feed reader stands: after the merchant's event at `position` (its own counter, so a cursor says nothing
 * of other merchants), or, from a cursor issued before positions existed, after every event of transaction `txid`.
 * `mark` is the id of the event at `position` when the cursor was handed out: the history the cursor belongs to.
 * A restore rewinds positions, and the position's event is then another one or none (webhooks/feed-history.ts).
 */
export type FeedPosition = { position: string; mark?: string } | { txid: string };

// "e" tells a feed cursor from a list cursor, so that one is never accepted for the other.
export function encodeFeedCursor(position: string, mark?: string): string {
  return Buffer.from(`e${position}${mark === undefined ? "" : `.${mark}`}`).toString("base64url");
}

export function decodeFeedCursor(cursor: string): FeedPosition {
  const text = Buffer.from(cursor, "base64url").toString();
  const current = /^e(\d{1,18})(?:\.([0-9a-f]{24}))?$/.exec(text);
  // Cursors handed out before they carried their history's mark ("e<position>") keep working, unchecked.
  if (current) return current[2] ? { position: current[1]!, mark: current[2] } : { position: current[1]! };
  // The release before feed positions paged by transaction id ("f<txid>.<id>"); its cursors keep working.
  const legacy = /^f(\d{1,20})\.[0-9a-f]{24}$/.exec(text);
  if (legacy && BigInt(legacy[1]!) <= 0xffffffffffffffffn) return { txid: legacy[1]! };
  throw invalid([{ path: "/query/cursor", message: "not a cursor this service returned", code: "cursor" }]);
}
