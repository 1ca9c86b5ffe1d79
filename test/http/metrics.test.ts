// GET /metrics: Prometheus text for operators behind METRICS_TOKEN, never for merchants.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { createShipment, getShipment } from "../helpers/fixtures.ts";
import { sampleValue } from "../helpers/prometheus.ts";
import { mergeCounts } from "../../server/db/write-merges.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const TOKEN = "metrics-token-for-the-test";
let srv: TestServer;
let bare: TestServer;
let m: LogisticsClient;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
  srv = await startTestServer({ metricsToken: TOKEN, webhooks: { allowPrivateNetworks: true }, dispatcher: true });
  bare = await startTestServer();
  m = await srv.merchant();
});
afterAll(async () => {
  await srv?.close();
  await bare?.close();
  await rx?.close();
});

const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
  const r = await fetch(`${srv.origin}/metrics`, { headers });
  return { status: r.status, text: await r.text(), type: r.headers.get("content-type") };
};

const value = sampleValue;

describe("/metrics", () => {
  it("refuses a missing or wrong token, and merchants' credentials; is absent without METRICS_TOKEN", async () => {
    expect((await scrape({})).status).toBe(401);
    expect((await scrape({ authorization: "Bearer wrong-token-of-the-same-size" })).status).toBe(401);
    expect((await scrape({ authorization: `Basic ${btoa("M-x:y")}` })).status).toBe(401);
    expect((await fetch(`${bare.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await fetch(`${srv.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).not.toBe(
      200,
    );
  });

  it("counts requests by operation and status, times them, and shows the pool, the database and the outbox", async () => {
    const id = await createShipment(m);
    const before =
      value((await scrape()).text, 'http_requests_total{operation="getInboundShipment",status="200"}') ?? 0;
    await getShipment(m, id);
    await getShipment(m, id);
    await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: "ffffffffffffffffffffffff" } } });
    const s = await scrape();
    expect(s.status).toBe(200);
    expect(s.type).toMatch(/^text\/plain/);
    expect(value(s.text, 'http_requests_total{operation="getInboundShipment",status="200"}')).toBe(before + 2);
    expect(value(s.text, 'http_requests_total{operation="getInboundShipment",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(value(s.text, 'http_requests_total{operation="createInboundShipment",status="201"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(value(s.text, 'http_request_duration_seconds_count{operation="getInboundShipment",status="200"}')).toBe(
      before + 2,
    );
    expect(value(s.text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    // Nothing stays queued for a connection. On the embedded database a scrape may find the housekeeping's upkeep
    // (an ANALYZE every few seconds, a VACUUM soon after start: db/upkeep.ts) on its one session: it waits its turn.
    await expect
      .poll(async () => value((await scrape()).text, 'db_pool_connections{state="waiting"}'), { timeout: 10_000 })
      .toBe(0);
    expect(value(s.text, "db_up")).toBe(1);
    expect(value(s.text, "webhook_outbox_pending")).toBe(0);
    expect(value(s.text, "webhook_oldest_undelivered_age_seconds")).toBe(0);
  });

  it("shows the process's merged writes: statements that carried several creates, their writes, and refusals", async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => createShipment(m)));
    expect(new Set(ids).size).toBe(8);
    const s = await scrape();
    // The server runs in this process: the published totals are the counts the write path keeps.
    expect(value(s.text, "db_merged_statements_total")).toBe(mergeCounts.statements);
    expect(value(s.text, "db_merged_writes_total")).toBe(mergeCounts.writes);
    expect(value(s.text, "db_merged_refused_total")).toBe(mergeCounts.refused);
    expect(mergeCounts.writes).toBeGreaterThanOrEqual(2 * mergeCounts.statements);
  });

  it("shows webhook delivery attempts by outcome and the outbox's depth and age", async () => {
    const ep = await m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url("/metrics"), event_types: ["webhook.test"] },
    });
    expect(ep.response.status).toBe(201);
    rx.respond = () => 500;
    await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.data!.id } } });
    await rx.waitFor(1, { path: "/metrics" });
    await expect
      .poll(async () => value((await scrape()).text, 'webhook_delivery_attempts_total{outcome="retrying"}'))
      .toBeGreaterThanOrEqual(1);
    const s = await scrape();
    expect(value(s.text, "webhook_outbox_pending")).toBe(1);
    expect(value(s.text, "webhook_oldest_undelivered_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(value(s.text, 'webhook_delivery_attempts_total{outcome="succeeded"}')).toBe(0);
  });
});
