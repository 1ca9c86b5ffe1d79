// One attempt of one request (a delivery, or a batch of them): prepare the signed bytes, send them, and
// classify the answer into an outcome per delivery. Typed hand-offs: ClaimedRow[] -> SendWebhookRequest ->
// SendWebhookResult -> Outcome[]. Never throws: a failure to prepare is a failed attempt.
import type { Logger } from "pino";
import { linkTo, SpanKind, SpanStatusCode, startSpan } from "../tracing/tracer.ts";
import { nextAttemptAt } from "./backoff.ts";
import { batchJson, envelopeJson, signedHeaders, type EnvelopeParts } from "./envelope.ts";
import type { ClaimedRow, Outcome } from "./queue.ts";
import { sendWebhook, type SendWebhookRequest, type SendWebhookResult } from "./sender.ts";
import type { WebhookSettings } from "./settings.ts";
import type { MainKeys } from "../secrets/main-keys.ts";
import { sealedFor } from "../secrets/at-rest.ts";

export async function attemptDelivery(
  rows: ClaimedRow[],
  asBatch: boolean,
  settings: WebhookSettings,
  keys: MainKeys,
  log: Logger,
): Promise<Outcome[]> {
  const started = new Date();
  // A trace of its own (when tracing is on), linked to each request that recorded one of its events.
  const span = startSpan("webhook delivery", {
    kind: SpanKind.CLIENT,
    root: true,
    links: rows.map((r) => linkTo(r.trace_parent)).filter((l) => l !== undefined),
    attributes: {
      "logistics.merchant": rows[0]!.merchant_id,
      "logistics.webhook.endpoint": rows[0]!.endpoint_id,
      "logistics.webhook.events": rows.length,
      "logistics.webhook.event_type": rows[0]!.event_type,
      "logistics.webhook.attempt": rows[0]!.attempts,
    },
  });
  let result: SendWebhookResult;
  try {
    result = await sendWebhook(prepare(rows, asBatch, settings, keys, started));
  } catch (err) {
    // Not the receiver's doing (sendWebhook itself never throws): log it, count it as a failed attempt.
    log.error({ err, delivery: rows[0]!.id }, "preparing a webhook request failed");
    result = { ok: false, durationMs: 0, error: "internal error preparing the request" };
  }
  if (span) {
    if (result.status !== undefined) span.setAttribute("http.response.status_code", result.status);
    if (!result.ok) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute("error.type", result.failureClass ?? "error");
    }
    span.end();
  }
  return classify(rows, result, started, settings, log);
}

/**
 * The request: the envelope (or a batch of them) and the headers signing exactly those bytes, with the endpoint's
 * secrets opened (a secret that does not open throws: a failed attempt, never a wrong signature).
 */
export function prepare(
  rows: ClaimedRow[],
  asBatch: boolean,
  settings: WebhookSettings,
  keys: MainKeys,
  started: Date,
): SendWebhookRequest {
  const first = rows[0]!;
  const row = sealedFor("webhook_endpoints", first.endpoint_id);
  const open = (sealed: string) => keys.open(sealed, row);
  const batchId = asBatch ? first.batch_id! : undefined;
  const parts = rows.map(partsOf);
  const body = batchId ? batchJson(parts) : envelopeJson(parts[0]!);
  return {
    url: first.url,
    headers: signedHeaders(
      {
        secret: open(first.secret_sealed),
        previousSecret: first.previous_secret_sealed === null ? null : open(first.previous_secret_sealed),
      },
      batchId ?? first.event_id,
      body,
      started,
    ),
    body,
    timeoutMs: settings.timeoutMs,
    allowPrivateNetworks: settings.allowPrivateNetworks,
    ...(first.basic_username !== null && {
      basicAuth: {
        username: first.basic_username,
        password: first.basic_password_sealed === null ? "" : open(first.basic_password_sealed),
      },
    }),
  };
}

/** What each delivery of the request becomes; the members of a batch stay together while retried. */
export function classify(
  rows: ClaimedRow[],
  result: SendWebhookResult,
  started: Date,
  settings: WebhookSettings,
  log: Logger,
): Outcome[] {
  // 410 Gone: the receiver says it is gone for good. As Stripe and Svix do, stop sending: the endpoint is
  // disabled (deliveries queued for it wait until the merchant enables it again) and this one fails now.
  const gone = result.status === 410;
  const common = {
    endpoint_id: rows[0]!.endpoint_id,
    started_at: started.toISOString(),
    response_status: result.status ?? null,
    error: result.ok
      ? null
      : `${result.error ?? "failed"}${gone ? "; the endpoint is now disabled" : ""}`.slice(0, 1000),
    duration_ms: result.durationMs,
    failure_class: result.ok ? null : (result.failureClass ?? null),
    response_excerpt: result.responseExcerpt || null,
    disable_endpoint: gone
      ? { id: rows[0]!.endpoint_id, reason: "The endpoint answered 410 Gone; enable it again when it receives events." }
      : null,
    receiver_wait_ms: null,
  };
  if (result.ok) {
    log.debug({ deliveries: rows.map((r) => r.id), status: result.status, ms: result.durationMs }, "webhook delivered");
    return rows.map((r) => ({
      ...common,
      id: r.id,
      attempts: r.attempts,
      status: "succeeded",
      wait_ms: null,
      keep_batch: true,
    }));
  }
  // One draw of jitter for the whole request, from its least-tried member.
  const lead = Math.min(...rows.map((r) => r.attempts));
  const next = nextAttemptAt(lead, started, settings.retrySchedule);
  const wait = next ? honourRetryAfter(next.getTime() - started.getTime(), result.retryAfterMs, settings) : null;
  const exhausted = (r: ClaimedRow) => gone || wait === null || r.attempts > settings.retrySchedule.length;
  const anyDone = rows.some(exhausted);
  return rows.map((r) => {
    if (exhausted(r)) {
      log.warn(
        { delivery: r.id, endpoint: r.endpoint_id, attempts: r.attempts, error: common.error },
        "webhook delivery failed for good",
      );
      return { ...common, id: r.id, attempts: r.attempts, status: "failed", wait_ms: null, keep_batch: true };
    }
    log.debug({ delivery: r.id, attempts: r.attempts, error: common.error }, "webhook attempt failed; will retry");
    return {
      ...common,
      id: r.id,
      attempts: r.attempts,
      status: "pending",
      wait_ms: wait,
      keep_batch: !anyDone,
      receiver_wait_ms: receiverWaitMs(result.retryAfterMs, settings),
    };
  });
}

/**
 * A receiver that answered 429 or 503 with Retry-After is not asked again sooner than it said, but never later than
 * the schedule's longest wait: a receiver cannot park its deliveries beyond the schedule's bounds.
 */
export function honourRetryAfter(
  scheduledMs: number,
  askedMs: number | undefined,
  settings: Pick<WebhookSettings, "retrySchedule">,
): number {
  const asked = receiverWaitMs(askedMs, settings);
  return asked === null ? scheduledMs : Math.max(scheduledMs, asked);
}

/** The wait a receiver asked for (Retry-After on a 429 or 503), within the schedule's longest wait; null: none. */
function receiverWaitMs(askedMs: number | undefined, settings: Pick<WebhookSettings, "retrySchedule">): number | null {
  return askedMs === undefined ? null : Math.min(askedMs, Math.max(...settings.retrySchedule) * 1000);
}

function partsOf(r: ClaimedRow): EnvelopeParts {
  return {
    eventId: r.event_id,
    eventType: r.event_type,
    endpointId: r.endpoint_id,
    eventAt: r.event_at,
    retryCount: r.retry_base + r.attempts - 1,
    payloadJson: r.payload,
  };
}
