// A receiver that answers 429 or 503 with Retry-After is listened to: its next attempt waits as long as it
// asked, within the retry schedule's longest wait; other failures keep the schedule.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { retryAfterMs } from "../../server/shared/retry-after.ts";
import type { Receiver } from "../helpers/receiver.ts";
import { useWebhookServer, type TestServer } from "../helpers/server.ts";

type Delivery = components["schemas"]["WebhookDelivery"];

let srv: TestServer;
let rx: Receiver;
let seq = 0;

// The first retry is due after ~5 s (jitter 20%), the longest wait of the schedule is 60 s: far enough from 0 that
// whole-second timestamps and a slow attempt cannot make a kept schedule look shortened.
useWebhookServer(
  (s, r) => {
    [srv, rx] = [s, r];
  },
  { retrySchedule: [5, 60], timeoutMs: 10_000 },
);

async function firstAttempt(m: LogisticsClient, answer: { status: number; headers?: Record<string, string> }) {
  const path = `/retry-after-${++seq}`;
  rx.respond = (req) => (req.path === path ? { ...answer, body: "busy" } : 200);
  const ep = await m.POST("/webhook_endpoints/_create", { body: { url: rx.url(path), event_types: ["webhook.test"] } });
  expect(ep.response.status).toBe(201);
  const id = ep.data!.id;
  const sent = await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: id } } });
  expect(sent.response.status).toBe(202);
  let found: Delivery | undefined;
  await expect
    .poll(
      async () => {
        const r = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", { params: { path: { webhook_id: id } } });
        found = r.data!.items[0];
        return found?.last_attempt_at ?? null;
      },
      { timeout: 10_000, interval: 50 },
    )
    .not.toBeNull();
  expect(found).toMatchObject({ status: "pending", last_response_status: answer.status });
  return (Date.parse(found!.next_attempt_at!) - Date.parse(found!.last_attempt_at!)) / 1000;
}

describe("When a merchant's receiver asks us to come back later", () => {
  it("a 429 with Retry-After: 45 is retried 45 s later, not after the schedule's 5 s", async () => {
    const m = await srv.merchant(`retry-after-429-${seq}.example.com`);
    const wait = await firstAttempt(m, { status: 429, headers: { "Retry-After": "45" } });
    // Timestamps are whole seconds and the wait counts from the attempt's start: allow for both.
    expect(wait).toBeGreaterThanOrEqual(44);
    expect(wait).toBeLessThanOrEqual(50);
  });

  it("a 503 with an HTTP date is retried at that date", async () => {
    const m = await srv.merchant(`retry-after-503-${seq}.example.com`);
    const at = new Date(Date.now() + 20_000).toUTCString();
    const wait = await firstAttempt(m, { status: 503, headers: { "Retry-After": at } });
    expect(wait).toBeGreaterThanOrEqual(15);
    expect(wait).toBeLessThanOrEqual(25);
  });

  it("a Retry-After beyond the schedule's longest wait is cut to it (60 s), never a day", async () => {
    const m = await srv.merchant(`retry-after-long-${seq}.example.com`);
    const wait = await firstAttempt(m, { status: 429, headers: { "Retry-After": "86400" } });
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(65);
  });

  it("a Retry-After on a 500, or one sooner than the schedule, does not shorten or lengthen the schedule", async () => {
    const m = await srv.merchant(`retry-after-500-${seq}.example.com`);
    expect(await firstAttempt(m, { status: 500, headers: { "Retry-After": "45" } })).toBeLessThanOrEqual(8);
    expect(await firstAttempt(m, { status: 429, headers: { "Retry-After": "0" } })).toBeGreaterThanOrEqual(3);
  });
});

describe("retryAfterMs reads RFC 9110's two forms and nothing else", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");
  it.each([
    ["120", 120_000],
    [" 7 ", 7_000],
    ["Wed, 25 Nov 2026 12:00:30 GMT", 30_000],
    ["Wed, 25 Nov 2026 11:00:00 GMT", 0],
    [undefined, undefined],
    ["", undefined],
    ["-5", undefined],
    ["1.5", undefined],
    ["2026", 2_026_000],
    ["Nov 25 2026", undefined],
    ["tomorrow", undefined],
    ["99999999999", undefined],
  ])("%j -> %j", (value, expected) => {
    expect(retryAfterMs(value, now)).toBe(expected);
  });
});
