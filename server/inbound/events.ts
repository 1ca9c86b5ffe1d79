import type { webhooks } from "../../generated/api.ts";
import type { Tx } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";
import { insertEvent } from "./db.ts";

type Envelope<E extends keyof webhooks> = NonNullable<webhooks[E]["post"]>["requestBody"]["content"]["application/json"];
export type InboundEventType = Extract<keyof webhooks, `inbound_shipment.${string}`>;
export type PayloadOf<E extends InboundEventType> = Envelope<E>["payload"];

/** Writes the event into the outbox inside the transaction of the change that caused it. */
export async function recordEvent<E extends InboundEventType>(trx: Tx, type: E, merchantId: string, at: Date, payload: PayloadOf<E>): Promise<void> {
  await insertEvent(trx, { id: newId(at.getTime()), merchant_id: merchantId, event_type: type, payload, created_at: at });
}
