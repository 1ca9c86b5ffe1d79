// Which history an events feed cursor belongs to. A restore of a backup (or any rewind of the database) takes
// the feed's positions back: the positions after the backup are handed out again, to other events, and a cursor
// from the lost future would silently skip them. So a cursor carries the id of the event at its position (its
// mark); when that position now holds another event, or none while older ones are kept, the cursor is refused
// with 409 cursor_from_other_history and a cursor to restart from.
import { AppError } from "../shared/errors.ts";
import { encodeFeedCursor } from "../shared/pagination.ts";
import type { Executor } from "../db/transaction.ts";
import { eventAtPosition, hasEventBefore, lastEventCreatedBy, lastFeedPosition } from "./feed.db.ts";

/** Refuses a cursor whose event at `position` is not `mark` any more. */
export async function checkHistory(db: Executor, merchantId: string, position: string, mark: string): Promise<void> {
  const now = await eventAtPosition(db, merchantId, position);
  if (now === mark) return;
  // A position this history has handed out, gone with every older event: retention removed it (the oldest go
  // first), the history is the same. One it has not handed out yet is from a lost future.
  if (
    now === undefined &&
    BigInt(position) <= BigInt(await lastFeedPosition(db, merchantId)) &&
    !(await hasEventBefore(db, merchantId, position))
  )
    return;
  throw fromOtherHistory(await restartCursor(db, merchantId, position, mark));
}

/** The refusal of a cursor from another history (the mock answers with it too). */
export function fromOtherHistory(restartCursor: string): AppError {
  return new AppError(
    "cursor_from_other_history",
    "This cursor belongs to a history of events this service no longer has (its database was restored from a backup): continue from restart_cursor, and expect events you already processed again (deduplicate by event_id).",
    [],
    {},
    { restart_cursor: restartCursor },
  );
}

/**
 * Where the caller can go on without missing an event of this history. The events it saw are the ones up to its
 * position, all created by the time its cursor's event was (ids begin with their creation second); events
 * created after that one here are of the new history. So the newest event before the cursor's position with
 * nothing newer at or before it was in what the caller saw, at the same place; the start of the feed otherwise.
 */
async function restartCursor(db: Executor, merchantId: string, position: string, mark: string): Promise<string> {
  const at = await lastEventCreatedBy(db, merchantId, position, mark.slice(0, 8));
  return at ? encodeFeedCursor(at.position, at.id) : encodeFeedCursor("0");
}
