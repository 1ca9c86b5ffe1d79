import { type Kysely } from "kysely";

// The trace context (W3C traceparent) of the request that recorded an event, when tracing is on, so that its
// deliveries' spans link to that request (tracing/tracer.ts). Expand only: the release before never reads it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("webhook_events").addColumn("trace_parent", "text").execute();
}
