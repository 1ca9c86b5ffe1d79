// Receivers that misbehave: each failure is recorded with a class a person can act on and the first bytes
// of the answer; 410 Gone disables the endpoint; redirects are not followed; huge answers are cut; one
// hanging endpoint does not hold up another's deliveries.
import { createServer } from "node:net";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { freePort } from "../../tools/processes.ts";
import type { Receiver } from "../helpers/receiver.ts";
import { useWebhookServer, type TestServer } from "../helpers/server.ts";

type S = components["schemas"];

let srv: TestServer;
let rx: Receiver;
let m: LogisticsClient;
let seq = 0;

useWebhookServer(
  (s, r) => {
    [srv, rx] = [s, r];
  },
  // 2 s: a loaded machine once took more than 800 ms over a receiver's first quick 500.
  { retrySchedule: [30], timeoutMs: 2_000 },
);
beforeEach(async () => {
  m = await srv.merchant(`misbehave-${++seq}.example.com`);
  rx.respond = () => 200;
});

async function endpointAt(url: string) {
  const r = await m.POST("/webhook_endpoints/_create", { body: { url, event_types: ["webhook.test"] } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  return r.data!;
}

async function sendTest(id: string) {
  const r = await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: id } } });
  expect(r.response.status).toBe(202);
}

/** The endpoint's only delivery, once its first attempt is recorded. */
async function attempted(id: string): Promise<S["WebhookDelivery"]> {
  let found: S["WebhookDelivery"] | undefined;
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
  return found!;
}

describe("receivers that misbehave", () => {
  it("500 with a body: http_5xx, the status, and the first bytes of the answer, retried later", async () => {
    rx.respond = () => ({ status: 500, body: "database is on fire\u0000\u001b[31m and more" });
    const ep = await endpointAt(rx.url(`/500-${seq}`));
    await sendTest(ep.id);
    const d = await attempted(ep.id);
    expect(d).toMatchObject({
      status: "pending",
      last_response_status: 500,
      failure_class: "http_5xx",
      last_error: "HTTP 500 from endpoint",
    });
    expect(d.last_response_excerpt).toBe("database is on fire[31m and more"); // printable text only
    expect(d.next_attempt_at).not.toBeNull();
  });

  it("410 Gone: the delivery fails at once, the endpoint is disabled with a reason, and enabling it again clears it", async () => {
    const gonePath = `/410-${seq}`;
    rx.respond = (req) => (req.path === gonePath ? { status: 410, body: "gone" } : 200);
    // The merchant's other endpoint, which listens for endpoints the service disables.
    const watcherPath = `/watcher-${seq}`;
    const watcher = await m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url(watcherPath), event_types: ["webhook_endpoint.disabled"] },
    });
    expect(watcher.response.status).toBe(201);
    const ep = await endpointAt(rx.url(gonePath));
    await sendTest(ep.id);
    const d = await attempted(ep.id);
    expect(d).toMatchObject({
      status: "failed",
      last_response_status: 410,
      failure_class: "gone",
      next_attempt_at: null,
    });
    expect(d.last_error).toContain("disabled");
    const got = await m.GET("/webhook_endpoints/{webhook_id}", { params: { path: { webhook_id: ep.id } } });
    expect(got.data).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining("410") });
    // The merchant is told: on its other endpoint, and in its events feed, with the same event id.
    const [told] = await rx.waitFor(1, { path: watcherPath });
    const event = JSON.parse(told!.body) as S["WebhookEndpointDisabledEvent"];
    expect(event).toMatchObject({
      event_type: "webhook_endpoint.disabled",
      webhook_id: watcher.data!.id,
      payload: { webhook_id: ep.id, url: rx.url(gonePath), reason: got.data!.disabled_reason },
    });
    const feed = await m.GET("/events", { params: { query: { event_type: ["webhook_endpoint.disabled"] } } });
    expect(feed.data!.items.map((e) => e.event_id)).toEqual([event.event_id]);
    const test = await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.id } } });
    expect(test.response.status).toBe(409);
    const enabled = await m.POST("/webhook_endpoints/{webhook_id}", {
      params: { path: { webhook_id: ep.id } },
      body: { enabled: true },
    });
    expect(enabled.data).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it("a failure streak of 5 days disables the endpoint and says so in the delivery log; a success or enabling it again ends the streak", async () => {
    rx.respond = () => ({ status: 500, body: "down" });
    const ep = await endpointAt(rx.url(`/streak-${seq}`));
    /** The latest delivery, once this many have been attempted. */
    const attemptNo = async (n: number) => {
      await sendTest(ep.id);
      let latest: S["WebhookDelivery"] | undefined;
      await expect
        .poll(
          async () => {
            const r = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
              params: { path: { webhook_id: ep.id } },
            });
            latest = r.data!.items[0];
            return r.data!.items.filter((d) => d.last_attempt_at !== null).length;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(n);
      return latest!;
    };
    // Time passes: the streak began 6 days ago.
    const backdate = async () =>
      Number(
        (
          await sql`update webhook_endpoints set failing_since = now() - interval '6 days' where id = ${ep.id} and failing_since is not null`.execute(
            srv.handle.db,
          )
        ).numAffectedRows,
      );
    const endpoint = async () =>
      (await m.GET("/webhook_endpoints/{webhook_id}", { params: { path: { webhook_id: ep.id } } })).data!;

    expect((await attemptNo(1)).status).toBe("pending");
    rx.respond = () => 200;
    expect((await attemptNo(2)).status).toBe("succeeded");
    expect(await backdate()).toBe(0); // the success ended the streak
    rx.respond = () => ({ status: 500, body: "down" });
    await attemptNo(3);
    expect(await endpoint()).toMatchObject({ enabled: true, disabled_reason: null });

    expect(await backdate()).toBe(1);
    const last = await attemptNo(4);
    expect(last).toMatchObject({ status: "pending", failure_class: "http_5xx" });
    // The note follows the attempt's record in a second statement.
    await expect
      .poll(
        async () =>
          (
            await m.GET("/webhook_endpoints/{webhook_id}/deliveries", { params: { path: { webhook_id: ep.id } } })
          ).data!.items.find((d) => d.id === last.id)?.last_error,
      )
      .toBe("HTTP 500 from endpoint; the endpoint is now disabled after a failure streak");
    expect(await endpoint()).toMatchObject({
      enabled: false,
      disabled_reason: expect.stringMatching(
        /^Every delivery attempt has failed since \d{4}-\d\d-\d\dT[\d:]+Z \(5 days\); enable it again/,
      ),
    });
    const told = await m.GET("/events", { params: { query: { event_type: ["webhook_endpoint.disabled"] } } });
    expect(told.data!.items).toHaveLength(1);
    expect(told.data!.items[0]!.payload).toMatchObject({
      webhook_id: ep.id,
      reason: (await endpoint()).disabled_reason,
    });

    // Enabled again by the merchant: a new failure starts a new streak instead of disabling it at once.
    expect(
      (
        await m.POST("/webhook_endpoints/{webhook_id}", {
          params: { path: { webhook_id: ep.id } },
          body: { enabled: true },
        })
      ).data,
    ).toMatchObject({ enabled: true, disabled_reason: null });
    await attemptNo(5);
    expect(await endpoint()).toMatchObject({ enabled: true });
  });

  it("a redirect is recorded, not followed", async () => {
    const target = `/redirect-target-${seq}`;
    rx.respond = (r) => (r.path === target ? 200 : { status: 302, body: `see ${target}` });
    const ep = await endpointAt(rx.url(`/redirect-${seq}`));
    const before = rx.received.filter((r) => r.path === target).length;
    await sendTest(ep.id);
    const d = await attempted(ep.id);
    expect(d).toMatchObject({ status: "pending", last_response_status: 302, failure_class: "redirect" });
    expect(d.last_error).toContain("redirects are not followed");
    expect(rx.received.filter((r) => r.path === target).length).toBe(before);
  });

  it("a huge answer is cut after a few KB and counts by its status", async () => {
    rx.respond = () => ({ status: 200, body: "x".repeat(5_000_000) });
    const ep = await endpointAt(rx.url(`/huge-${seq}`));
    await sendTest(ep.id);
    const d = await attempted(ep.id);
    expect(d).toMatchObject({ status: "succeeded", last_response_status: 200, failure_class: null });
    expect(d.last_response_excerpt).toBe("x".repeat(200));
  });

  it("timeouts, refused connections and silent sockets are classed; a hanging endpoint does not hold up another", async () => {
    // Accepts connections and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const closedPort = await freePort();
    try {
      const hanging = await endpointAt(`http://127.0.0.1:${(silent.address() as { port: number }).port}/never`);
      const refused = await endpointAt(`http://127.0.0.1:${closedPort}/closed`);
      const healthy = await endpointAt(rx.url(`/healthy-${seq}`));
      for (let i = 0; i < 5; i++) await sendTest(hanging.id);
      const t0 = performance.now();
      await sendTest(healthy.id);
      await rx.waitFor(1, { path: `/healthy-${seq}` });
      // Well before the hanging attempts time out (2 s).
      expect(performance.now() - t0).toBeLessThan(1_800);
      await sendTest(refused.id);
      expect(await attempted(refused.id)).toMatchObject({
        status: "pending",
        last_response_status: null,
        failure_class: "refused",
        last_error: "connection refused",
      });
      const slow = await attempted(hanging.id);
      expect(slow).toMatchObject({ status: "pending", last_response_status: null, failure_class: "timeout" });
      expect(slow.last_duration_ms).toBeGreaterThanOrEqual(1_900);
    } finally {
      silent.close();
    }
  });

  it("a slow answer past the timeout is a timeout", async () => {
    rx.respond = () => ({ status: 200, delayMs: 4_000 });
    const ep = await endpointAt(rx.url(`/slow-${seq}`));
    await sendTest(ep.id);
    expect(await attempted(ep.id)).toMatchObject({
      status: "pending",
      failure_class: "timeout",
      last_error: "timeout after 2 s",
    });
  });
});
