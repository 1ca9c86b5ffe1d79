// The database goes away under load, or stalls, and comes back: the server process survives, answers
// 503 `unavailable` with Retry-After within 5 s meanwhile, tells the truth on /readyz, recovers by itself
// and loses nothing it acknowledged; webhooks queued before the outage go out after it. On a PostgreSQL
// cluster of this test's own (never the shared one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogisticsClient, type LogisticsClient } from "../../client/index.ts";
import { DEMO } from "../../server/demo.ts";
import { createOwnCluster, ownClusterAvailable, type OwnCluster } from "../helpers/own-cluster.ts";
import { sampleValue } from "../helpers/prometheus.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { freePort, run, SERVER_MAIN, waitReady, type Proc } from "./helpers.ts";

const missing = ownClusterAvailable();
if (missing && process.env.CI === "true")
  throw new Error(`the database outage tests need initdb and pg_ctl: ${missing}`);

let cluster: OwnCluster;
let server: Proc;
let origin: string;
let metricsOrigin: string;
let m: LogisticsClient;
let w: LogisticsClient;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
  cluster = await createOwnCluster();
  const port = await freePort();
  const metricsPort = await freePort();
  origin = `http://127.0.0.1:${port}`;
  metricsOrigin = `http://127.0.0.1:${metricsPort}`;
  server = run(SERVER_MAIN, [], {
    DATABASE_URL: cluster.url,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "0",
    DB_CONNECT_TIMEOUT_MS: "2000",
    DB_STATEMENT_TIMEOUT_MS: "2000",
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    WEBHOOK_RETRY_SCHEDULE: "0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5",
    WEBHOOK_TIMEOUT_MS: "1000",
  });
  await waitReady(origin, server, 60_000);
  m = createLogisticsClient({
    baseUrl: `${origin}/2015-01-01`,
    username: `M-${DEMO.merchantId}`,
    secret: DEMO.merchantSecret,
  });
  w = createLogisticsClient({
    baseUrl: `${origin}/2015-01-01`,
    username: `W-${DEMO.operatorId}`,
    secret: DEMO.operatorSecret,
  });
}, 90_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  cluster?.destroy();
  await rx?.close();
});

const announce = (ref: string) =>
  m.POST("/inbound_shipments/_create", {
    body: { merchants_ref: ref, sender_name: "A", products: [{ merchants_id: "S", qty: 10 }] },
  });

/** Writes every 50 ms until stopped; keeps what was acknowledged and how every other answer looked. */
function writeLoad() {
  const acknowledged: string[] = [];
  const failures: { status: number; code?: string; retryAfter: string | null; ms: number }[] = [];
  let running = true;
  let n = 0;
  const done = (async () => {
    while (running) {
      const t0 = performance.now();
      const r = await announce(`LOAD-${++n}`).catch(() => undefined);
      const ms = performance.now() - t0;
      if (r?.response.status === 201) acknowledged.push(r.data!.shipment_id);
      else
        failures.push({
          status: r?.response.status ?? 0,
          code: (r?.error as { code?: string } | undefined)?.code,
          retryAfter: r?.response.headers.get("retry-after") ?? null,
          ms,
        });
      await new Promise((res) => setTimeout(res, 50));
    }
  })();
  return { acknowledged, failures, stop: async () => ((running = false), await done) };
}

async function metric(sample: string): Promise<number | undefined> {
  return sampleValue(await (await fetch(`${metricsOrigin}/metrics`)).text(), sample);
}

async function status(path: string): Promise<number> {
  return (await fetch(origin + path)).status;
}

/** Milliseconds until a read succeeds again. */
async function recoveryMs(shipmentId: string, limitMs: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < limitMs) {
    const r = await m
      .GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: shipmentId } } })
      .catch(() => undefined);
    if (r?.response.status === 200) return performance.now() - t0;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`not recovered within ${limitMs} ms`);
}

describe.skipIf(missing)("the database goes away and comes back", () => {
  it("stopped for 6 s under writes: 503 unavailable within 5 s, /readyz 503, /healthz 200, recovery within 10 s, nothing acknowledged lost, queued webhooks go out", async () => {
    const before = await announce("BEFORE");
    expect(before.response.status).toBe(201);
    const shipmentId = before.data!.shipment_id;
    // A webhook queued before the outage whose receiver fails until after it: it must still arrive.
    const ep = await m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url("/outage"), event_types: ["inbound_shipment.items_arrived"] },
    });
    expect(ep.response.status).toBe(201);
    let receiverUp = false;
    rx.respond = () => (receiverUp ? 200 : 500);
    const arrived = await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
      params: { path: { shipment_id: shipmentId } },
      body: { arrivals: [{ merchants_id: "S", change: 2 }] },
    });
    expect(arrived.response.status).toBe(200);
    await rx.waitFor(1, { path: "/outage" });

    const load = writeLoad();
    await new Promise((res) => setTimeout(res, 500));
    cluster.stop();
    const downAt = performance.now();

    // During the outage: every kind of request answers 503 in the error shape, quickly.
    await new Promise((res) => setTimeout(res, 500));
    const read = await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: shipmentId } } });
    expect(read.response.status).toBe(503);
    expect(read.error).toMatchObject({ success: false, code: "unavailable" });
    expect(read.response.headers.get("retry-after")).toMatch(/^\d+$/);
    const arrivalDuring = await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
      params: { path: { shipment_id: shipmentId } },
      body: { arrivals: [{ merchants_id: "S", change: 1 }] },
    });
    expect(arrivalDuring.response.status).toBe(503);
    expect(await status("/readyz")).toBe(503);
    expect(await status("/healthz")).toBe(200);
    // Operators see the outage: the database is down and the 503s are counted.
    expect(await metric("db_up")).toBe(0);
    expect(await metric('http_requests_total{operation="getInboundShipment",status="503"}')).toBeGreaterThanOrEqual(1);

    while (performance.now() - downAt < 6_000) await new Promise((res) => setTimeout(res, 100));
    cluster.start();
    const recovered = await recoveryMs(shipmentId, 10_000);
    await load.stop();
    expect(server.child.exitCode).toBeNull(); // the process survived

    // Every failed answer during the outage was a 503 unavailable with Retry-After, within 5 s.
    expect(load.failures.length).toBeGreaterThan(0);
    for (const f of load.failures) {
      expect(f).toMatchObject({ status: 503, code: "unavailable" });
      expect(f.retryAfter).toMatch(/^\d+$/);
      expect(f.ms).toBeLessThan(5_000);
    }
    expect(recovered).toBeLessThan(10_000);
    console.log(
      `outage: ${load.acknowledged.length} writes acknowledged, ${load.failures.length} answered 503 (slowest ${Math.round(Math.max(...load.failures.map((f) => f.ms)))} ms); recovered ${Math.round(recovered)} ms after the restart`,
    );
    await expect.poll(() => status("/readyz"), { timeout: 10_000 }).toBe(200);
    expect(await metric("db_up")).toBe(1);

    // Nothing acknowledged was lost, and the arrival refused during the outage was not half-applied.
    for (const id of [shipmentId, ...load.acknowledged]) {
      const r = await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
      expect(r.response.status).toBe(200);
    }
    const after = await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: shipmentId } } });
    expect(after.data!.products[0]!.arrivedQty).toBe(2);

    // The webhook queued before the outage is delivered, and a new one after it too (the dispatcher is back).
    receiverUp = true;
    const seen = rx.received.length;
    const again = await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
      params: { path: { shipment_id: shipmentId } },
      body: { arrivals: [{ merchants_id: "S", change: 1 }] },
    });
    expect(again.response.status).toBe(200);
    await expect
      .poll(
        async () => {
          const l = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
            params: { path: { webhook_id: ep.data!.id } },
          });
          return l.data!.items.map((d) => d.status).sort();
        },
        { timeout: 15_000, interval: 200 },
      )
      .toEqual(["succeeded", "succeeded"]);
    expect(rx.received.length).toBeGreaterThan(seen);
  }, 90_000);

  it("stalls (every database process paused): 503 unavailable within 5 s, then recovery by itself", async () => {
    const created = await announce("STALL");
    expect(created.response.status).toBe(201);
    const id = created.data!.shipment_id;
    cluster.pause();
    try {
      const t0 = performance.now();
      const r = await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
      const ms = performance.now() - t0;
      expect(r.response.status).toBe(503);
      expect(r.error).toMatchObject({ code: "unavailable" });
      expect(ms).toBeLessThan(5_000);
      const ready = performance.now();
      expect(await status("/readyz")).toBe(503);
      expect(performance.now() - ready).toBeLessThan(5_000);
      expect(await status("/healthz")).toBe(200);
    } finally {
      cluster.resume();
    }
    expect(await recoveryMs(id, 10_000)).toBeLessThan(10_000);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});
