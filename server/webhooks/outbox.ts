// The transactional outbox: every resource records its events here, in the transaction of the change
// that caused them, so an event exists exactly when its change committed.
import type { webhooks } from "../../generated/api.ts";
import type { Tx } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";
import type { EventType } from "./tables.ts";

export type { EventType };
export type EventEnvelope<E extends EventType> = NonNullable<webhooks[E]["post"]>["requestBody"]["content"]["application/json"];
export type PayloadOf<E extends EventType> = EventEnvelope<E>["payload"];

export async function recordEvent<E extends EventType>(trx: Tx, type: E, merchantId: string, at: Date, payload: PayloadOf<E>): Promise<string> {
  const id = newId(at.getTime());
  await trx
    .insertInto("webhook_events")
    .values({ id, merchant_id: merchantId, event_type: type, payload: JSON.stringify(payload), created_at: at })
    .execute();
  return id;
}
