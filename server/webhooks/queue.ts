// The dispatcher's queries. Each is one short statement (or one short transaction for a batch): a claim
// commits before anything is sent, and no transaction is ever open during an HTTP call. Times come from
// the database's clock, the one every dispatcher compares `due_at` with.
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { inTransaction, type Executor, type Tx } from "../db/transaction.ts";
import { formatTimestamp } from "../shared/time.ts";
import { recordEvent } from "./outbox.ts";
import type { EventType, FailureClass } from "./tables.ts";
import { reads, writes } from "../db/statement-ways.ts";

/** A claimed delivery with what sending it needs. */
export interface ClaimedRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  merchant_id: string;
  /** Including the attempt being made. */
  attempts: number;
  retry_base: number;
  batch_id: string | null;
  url: string;
  /** Sealed under the main key for the endpoint's row (attempt.ts opens them), like the two below. */
  secret_sealed: string;
  /** Only while it still signs (24 hours after a rotation). */
  previous_secret_sealed: string | null;
  basic_username: string | null;
  basic_password_sealed: string | null;
  event_type: EventType;
  event_at: Date;
  payload: string;
  /** The recording request's traceparent, when it was traced. */
  trace_parent: string | null;
}

const seconds = (ms: number) => ms / 1000;

/** Marks the picked rows in flight until the lease ends and returns them with endpoint and event. */
const claimFrom = (picked: ReturnType<typeof sql>, leaseMs: number, batchId: string | null = null) =>
  sql<ClaimedRow>`
  with picked as materialized (${picked}),
  claimed as (
    update webhook_deliveries d
    set status = 'in_flight', attempts = d.attempts + 1, due_at = now() + make_interval(secs => ${seconds(leaseMs)}),
        batch_id = coalesce(d.batch_id, ${batchId}::char(24))
    where d.id = any(array(select id from picked)) -- an index scan whatever the planner thinks of the table
    returning d.*)
  select c.id, c.event_id, c.endpoint_id, c.merchant_id, c.attempts, c.retry_base, c.batch_id, e.url, e.secret_sealed,
         case when e.previous_secret_expires_at > now() then e.previous_secret_sealed end as previous_secret_sealed,
         e.basic_username, e.basic_password_sealed, ev.event_type, ev.created_at as event_at, ev.payload::text as payload,
         ev.trace_parent
  from claimed c
  join webhook_endpoints e on e.id = c.endpoint_id
  join webhook_events ev on ev.id = c.event_id
  order by ev.created_at, c.id`.withPlugin(writes);

/** Who is at a limit in this dispatcher, and so left out of its claims. */
export interface Exclusions {
  endpoints: string[];
  merchants: string[];
}

/**
 * Claims up to `limit` due deliveries to endpoints without batching, fairly: each merchant's oldest due
 * first, taken in turns across merchants (at most `perMerchant` of one merchant per claim), so that one
 * merchant's backlog never queues ahead of another's first delivery. Skips rows another dispatcher holds
 * (SKIP LOCKED) and the endpoints and merchants at their limit here.
 */
export async function claimSingles(
  db: Db,
  limit: number,
  perMerchant: number,
  leaseMs: number,
  excluded: Exclusions,
): Promise<ClaimedRow[]> {
  const picked = sql`
    select d.id from webhook_deliveries d
    where d.id = any(array(
      select x.id from (
        select d.id, d.due_at, row_number() over (partition by d.merchant_id order by d.due_at, d.id) as turn
        from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id
        where d.due_at <= now() and e.enabled and not e.batching
          and d.endpoint_id <> all(${excluded.endpoints}::char(24)[]) and d.merchant_id <> all(${excluded.merchants}::text[])) x
      where x.turn <= ${perMerchant}
      order by x.turn, x.due_at
      limit ${limit}))
      and d.due_at <= now()
    for update of d skip locked`;
  return (await claimFrom(picked, leaseMs).execute(db)).rows;
}

/** Batching endpoints with something due (a hint: claimBatch decides under the endpoint's lock). */
export async function batchCandidates(db: Executor, limit: number, excluded: Exclusions): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select e.id from webhook_endpoints e
    where e.batching and e.enabled and e.id <> all(${excluded.endpoints}::char(24)[]) and e.merchant_id <> all(${excluded.merchants}::text[])
      and exists (select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.due_at <= now())
    limit ${limit}`
    .withPlugin(reads)
    .execute(db);
  return r.rows.map((x) => x.id);
}

/**
 * Locks those of `ids` that no other dispatcher is claiming from. Whoever claims a batching endpoint's
 * deliveries holds this lock, so a batch is never split between two dispatchers.
 * NO KEY UPDATE: queuing new deliveries (a foreign key check) does not wait for it.
 */
export async function lockEndpoints(trx: Tx, ids: string[]): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select id from webhook_endpoints where id = any(${ids}::char(24)[]) and batching
    for no key update skip locked`.execute(trx);
  return r.rows.map((x) => x.id);
}

/**
 * Claims the next batch of a locked endpoint: the due members of the batch that is due first (all of
 * them: a retried batch is resent whole, under its id), or up to `max` due deliveries in no batch yet,
 * which become batch `newBatchId`.
 */
export async function claimBatch(
  trx: Tx,
  endpointId: string,
  max: number,
  leaseMs: number,
  newBatchId: string,
): Promise<ClaimedRow[]> {
  const picked = sql`
    select d.id from webhook_deliveries d
    where d.endpoint_id = ${endpointId} and d.due_at <= now()
      and d.batch_id is not distinct from (
        select f.batch_id from webhook_deliveries f
        where f.endpoint_id = ${endpointId} and f.due_at <= now()
        order by f.due_at, f.id limit 1)
    order by d.due_at, d.id
    limit ${max}
    for update of d`;
  return (await claimFrom(picked, leaseMs, newBatchId).execute(trx)).rows;
}

/** The outcome of one attempt of one delivery. */
export interface Outcome {
  id: string;
  endpoint_id: string;
  /** As claimed: a stale outcome (the lease ran out and another attempt began) changes nothing. */
  attempts: number;
  status: "pending" | "succeeded" | "failed";
  /** Until the next attempt, when pending. */
  wait_ms: number | null;
  /** False: leave the batch (its other members finished), so the rest is retried as a new batch. */
  keep_batch: boolean;
  started_at: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  failure_class: FailureClass | null;
  /** The first characters of the answer. */
  response_excerpt: string | null;
  /** The endpoint answered 410 Gone: the service disables it, with this reason. */
  disable_endpoint: { id: string; reason: string } | null;
  /** The part of `wait_ms` the receiver asked for itself (Retry-After); a re-delivery respects it. */
  receiver_wait_ms: number | null;
}

/**
 * Records many outcomes in one statement, then each endpoint's failure streak: a success ends it; an
 * endpoint whose attempts have all failed for `disableAfterFailingDays` (0: never) is disabled, and the
 * attempt that did it says so in the delivery log.
 */
export async function finish(db: Db, outcomes: Outcome[], disableAfterFailingDays = 0): Promise<void> {
  const gone = new Map(
    outcomes.flatMap((o) => (o.disable_endpoint ? [[o.disable_endpoint.id, o.disable_endpoint.reason] as const] : [])),
  );
  if (gone.size === 0) await recordOutcomes(db, outcomes);
  else
    // A delivery that says its endpoint was disabled is never seen before the endpoint is: one transaction,
    // the endpoint first (the order of the API's own changes of an endpoint and its deliveries).
    await inTransaction(db, async (trx) => {
      for (const [id, reason] of gone) {
        const r = await sql<DisabledRow>`
          update webhook_endpoints set enabled = false, disabled_reason = ${reason}, updated_at = now()
          where id = ${id} and enabled
          returning id, merchant_id, url, disabled_reason, updated_at`.execute(trx);
        await announceDisabled(trx, r.rows);
      }
      await recordOutcomes(trx, outcomes);
    });
  await recordStreaks(db, outcomes, disableAfterFailingDays);
}

/** Each attempt's outcome on its delivery, unless the lease ran out and another attempt began meanwhile. */
async function recordOutcomes(ex: Executor, outcomes: Outcome[]): Promise<void> {
  await sql`
    update webhook_deliveries d
    set status = v.status,
        due_at = case when v.wait_ms is null then null else now() + make_interval(secs => v.wait_ms / 1000.0) end,
        receiver_not_before = case when v.receiver_wait_ms is null then null
          else now() + make_interval(secs => v.receiver_wait_ms / 1000.0) end,
        batch_id = case when v.keep_batch then d.batch_id end,
        last_attempt_at = v.started_at,
        last_response_status = v.response_status,
        last_error = v.error,
        last_duration_ms = v.duration_ms,
        last_failure_class = v.failure_class,
        last_response_excerpt = v.response_excerpt
    from json_to_recordset(${JSON.stringify(outcomes.map(({ disable_endpoint: _, endpoint_id: __, ...o }) => o))}::json) as v(
      id char(24), attempts int, status text, wait_ms double precision, receiver_wait_ms double precision, keep_batch boolean,
      started_at timestamptz, response_status int, error text, duration_ms int, failure_class text, response_excerpt text)
    where d.id = any(${outcomes.map((o) => o.id)}::char(24)[]) and d.id = v.id and d.attempts = v.attempts and d.status = 'in_flight'`
    .withPlugin(writes)
    .execute(ex);
}

interface DisabledRow {
  id: string;
  merchant_id: string;
  url: string;
  disabled_reason: string;
  updated_at: Date;
}

/** The merchant hears of it: an event to its other endpoints and in its feed, in the transaction that disabled. */
async function announceDisabled(trx: Tx, rows: DisabledRow[]): Promise<void> {
  for (const r of rows) {
    await recordEvent(trx, "webhook_endpoint.disabled", r.merchant_id, r.updated_at, {
      webhook_id: r.id,
      url: r.url,
      reason: r.disabled_reason,
      disabled_at: formatTimestamp(r.updated_at),
    });
  }
}

async function recordStreaks(db: Db, outcomes: Outcome[], days: number): Promise<void> {
  const succeeded = new Set(outcomes.filter((o) => o.status === "succeeded").map((o) => o.endpoint_id));
  const failedSince = new Map<string, string>();
  for (const o of outcomes) {
    if (o.status === "succeeded" || succeeded.has(o.endpoint_id)) continue;
    const first = failedSince.get(o.endpoint_id);
    if (!first || o.started_at < first) failedSince.set(o.endpoint_id, o.started_at);
  }
  if (succeeded.size) {
    await sql`update webhook_endpoints set failing_since = null where id = any(${[...succeeded]}::char(24)[]) and failing_since is not null`
      .withPlugin(writes)
      .execute(db);
  }
  if (!failedSince.size) return;
  const ids = [...failedSince.keys()];
  const starts = ids.map((id) => failedSince.get(id)!);
  await sql`
    update webhook_endpoints e set failing_since = v.started_at
    from unnest(${ids}::char(24)[], ${starts}::timestamptz[]) as v(id, started_at)
    where e.id = v.id and e.failing_since is null`
    .withPlugin(writes)
    .execute(db);
  if (days <= 0) return;
  const disabled = await inTransaction(db, async (trx) => {
    const r = await sql<DisabledRow>`
      update webhook_endpoints
      set enabled = false, updated_at = now(),
          disabled_reason = 'Every delivery attempt has failed since ' || to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ' (' || ${days}::int || ' days); enable it again when it receives events.'
      where id = any(${ids}::char(24)[]) and enabled and failing_since < now() - make_interval(days => ${days}::int)
      returning id, merchant_id, url, disabled_reason, updated_at`.execute(trx);
    await announceDisabled(trx, r.rows);
    return r;
  });
  if (!disabled.rows.length) return;
  const disabledIds = new Set(disabled.rows.map((r) => r.id));
  const noted = outcomes.filter((o) => disabledIds.has(o.endpoint_id)).map((o) => o.id);
  await sql`
    update webhook_deliveries set last_error = left(coalesce(last_error, 'failed') || '; the endpoint is now disabled after a failure streak', 1000)
    where id = any(${noted}::char(24)[])`
    .withPlugin(writes)
    .execute(db);
}

/** Gives back claimed deliveries that were not attempted (their endpoint was at its limit here). */
export async function release(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await sql`
    update webhook_deliveries set status = 'pending', attempts = attempts - 1, due_at = now()
    where id = any(${ids}::char(24)[]) and status = 'in_flight'`
    .withPlugin(writes)
    .execute(db);
}

/**
 * After a restart on a database no other process can use (PGlite): deliveries left in flight by the
 * previous run are due again at once instead of at the end of their lease.
 */
export async function recoverInFlight(db: Db): Promise<number> {
  const r = await sql`update webhook_deliveries set status = 'pending', due_at = now() where status = 'in_flight'`
    .withPlugin(writes)
    .execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** When the earliest queued delivery is due (or its lease ends). */
export async function nextDueAt(db: Db): Promise<Date | undefined> {
  const r = await sql<{
    at: Date | null;
  }>`select min(due_at) as at from webhook_deliveries where due_at is not null`
    .withPlugin(reads)
    .execute(db);
  return r.rows[0]?.at ?? undefined;
}
