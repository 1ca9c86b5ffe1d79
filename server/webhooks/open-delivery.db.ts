// The delivery of an event to an endpoint that is not finished yet (one at most: re-deliveries are serialized by the
// endpoint's lock), and bringing its next attempt forward to now.
import { sql } from "kysely";
import type { Executor, Tx } from "../db/transaction.ts";
import type { DeliveryState } from "./tables.ts";
import { WAKE_CHANNEL } from "./dispatcher.ts";
import { reads } from "../db/statement-ways.ts";

export interface OpenDelivery {
  id: string;
  status: Extract<DeliveryState, "pending" | "in_flight">;
  batch_id: string | null;
  /** While the receiver's Retry-After is in force (by the database's clock): until when, and seconds left. */
  receiverWait: { until: Date; seconds: number } | null;
}

export async function findOpenDelivery(
  db: Executor,
  eventId: string,
  endpointId: string,
): Promise<OpenDelivery | undefined> {
  const r = await sql<{
    id: string;
    status: OpenDelivery["status"];
    batch_id: string | null;
    until: Date | null;
    seconds: number | null;
  }>`
    select id, status, batch_id,
           case when receiver_not_before > now() then receiver_not_before end as until,
           case when receiver_not_before > now() then ceil(extract(epoch from receiver_not_before - now()))::int end as seconds
    from webhook_deliveries
    where event_id = ${eventId} and endpoint_id = ${endpointId} and status in ('pending', 'in_flight')
    limit 1`
    .withPlugin(reads)
    .execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  const { until, seconds, ...rest } = row;
  return { ...rest, receiverWait: until === null ? null : { until, seconds: Math.max(1, seconds ?? 1) } };
}

/**
 * Makes a pending delivery due now, with the rest of its batch (a batch is retried whole), and wakes the
 * dispatchers when the transaction commits. One in flight is being attempted already: left as it is.
 */
export async function attemptNow(trx: Tx, open: OpenDelivery, endpointId: string): Promise<void> {
  if (open.status !== "pending") return;
  await sql`
    update webhook_deliveries set due_at = now()
    where status = 'pending' and endpoint_id = ${endpointId}
      and (id = ${open.id} or (${open.batch_id}::char(24) is not null and batch_id = ${open.batch_id}::char(24)))`.execute(
    trx,
  );
  await sql`select pg_notify(${WAKE_CHANNEL}, '')`.execute(trx);
}
