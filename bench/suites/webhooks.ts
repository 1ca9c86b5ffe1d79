// `npm run bench:webhooks`: webhook deliveries per second to a local receiver, and the latency from an
// arrival's commit to the receipt of its webhook, on a throw-away database (PostgreSQL when DATABASE_URL
// is set: a fresh database created beside it and dropped after; otherwise PGlite).
//
// The server runs as `npm start` does, in its own process; warehouse workers record arrivals through the
// API (one item at a time, on shipments of their own); the receiver, in a third process
// (bench-webhooks-receiver.ts), answers 200 at once.
// Latency = receipt of the webhook minus receipt of the arrival's 200 answer, which the server sends right
// after the commit (so a webhook may even arrive first: a negative latency). Each scenario reports the
// deliveries per second from the first arrival to the last receipt, and the latency percentiles.
// Figures depend on the machine and its load: compare runs made in one session.
import { fork, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createLogisticsClient, type LogisticsClient } from "../../client/index.ts";
import { BASE_PATH } from "../../server/app.ts";
import { openDatabase } from "../../server/db/database.ts";
import { DEMO } from "../../server/demo.ts";
import { newId } from "../../server/shared/ids.ts";
import { recordEvent } from "../../server/webhooks/outbox.ts";
import { MAX_ENDPOINTS } from "../../server/webhooks/endpoints.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { goal, writeResults, type ResultRow } from "../results.ts";
import { buildServer } from "../targets.ts";
import { createScratchDatabase, type ScratchDatabase } from "../../tools/postgres.ts";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 10_000);
const PORT = Number(process.env.BENCH_PORT ?? 3918);
const adminUrl = process.env.DATABASE_URL || undefined;

interface Scenario {
  name: string;
  /** Endpoints of the merchant subscribed to items_arrived: each arrival is that many deliveries. */
  endpoints: number;
  /** Warehouse workers recording arrivals concurrently. */
  workers: number;
  /** Arrivals a second for all workers together; absent: as fast as they can (the queue may grow without end). */
  rate?: number;
}

// A merchant has at most 20 endpoints (MAX_ENDPOINTS): live fan-out goes to 20; drains reach 100 endpoints
// with five merchants of 20.
const SCENARIOS: Scenario[] = [
  { name: "live: 1 endpoint, 4 workers", endpoints: 1, workers: 4 },
  { name: "live: 10 endpoints, 8 workers", endpoints: 10, workers: 8 },
  { name: "live: 20 endpoints, 8 workers", endpoints: MAX_ENDPOINTS, workers: 8 },
  // The issue's goal: 1,000 deliveries a second or more, each within 50 ms (p50): offered, not saturated.
  { name: "live: 20 endpoints, 60 arrivals/s", endpoints: MAX_ENDPOINTS, workers: 8, rate: 60 },
];
/** Drains (PostgreSQL only): about BACKLOG deliveries each, spread over 1, 10 and 100 endpoints. */
const DRAINS = [1, 10, 100];
const results: ResultRow[] = [];
const problems: string[] = [];
const startedAt = new Date();

// ---------------------------------------------------------------------------------------------------
// Database and server

let scratch: ScratchDatabase | undefined;
let dir: string | undefined;
let databaseEnv: Record<string, string>;
const databaseName = adminUrl ? "postgres" : "pglite";
if (adminUrl) {
  const created = await createScratchDatabase(adminUrl);
  if ("unreachable" in created) throw new Error(`PostgreSQL unreachable: ${created.unreachable}`);
  scratch = created;
  databaseEnv = { DATABASE_URL: created.url };
} else {
  dir = mkdtempSync(path.join(tmpdir(), "logistics-bench-webhooks-"));
  databaseEnv = { DATABASE_URL: "", PGLITE_DIR: path.join(dir, "db") };
}

// One process serving the API and delivering (SERVER_ROLE=both, the default), or, on PostgreSQL, the design
// that scales them apart: an API process and a worker process (SERVER_ROLE=api and worker).
let servers: ChildProcess[] = [];
let layout = "one process";
async function startServers(split: boolean): Promise<void> {
  await stopServers();
  layout = split ? "API + worker process" : "one process";
  const roles = split
    ? ([
        ["api", PORT],
        ["worker", PORT + 1],
      ] as const)
    : ([["both", PORT]] as const);
  for (const [role, port] of roles) {
    const child = spawn(process.execPath, [buildServer()], {
      env: {
        ...process.env,
        ...databaseEnv,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        SEED_DEMO: "true",
        RATE_LIMIT_PER_MINUTE: "0",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        SERVER_ROLE: role,
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    servers.push(child);
    for (let i = 0; ; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 600) throw new Error(`the ${role} server did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
async function stopServers(): Promise<void> {
  for (const child of servers) {
    child.kill("SIGTERM");
    if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
  }
  servers = [];
}
await startServers(false);
const origin = `http://127.0.0.1:${PORT}`;
const baseUrl = origin + BASE_PATH;
const merchant = createLogisticsClient({ baseUrl, username: `M-${DEMO.merchantId}`, secret: DEMO.merchantSecret });
const operator = createLogisticsClient({ baseUrl, username: `W-${DEMO.operatorId}`, secret: DEMO.operatorSecret });

// ---------------------------------------------------------------------------------------------------
// Receiver: records when each (shipment, arrivedQty) reached an endpoint.

/** Epoch milliseconds, sub-millisecond: comparable with the receiver process's times. */
const now = () => performance.timeOrigin + performance.now();
let receipts: { key: string; at: number }[] = [];
const receiver = fork(path.join(import.meta.dirname, "webhooks-receiver.ts"), [], {
  execArgv: ["--import", "tsx"],
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const receiverPort = await new Promise<number>((resolve) => {
  receiver.on("message", (m: { port?: number; receipts?: [string, number][] }) => {
    if (m.port) resolve(m.port);
    for (const [key, at] of m.receipts ?? []) receipts.push({ key, at });
  });
});
const receiverUrl = `http://127.0.0.1:${receiverPort}`;

// ---------------------------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function setEndpoints(n: number, api = merchant): Promise<void> {
  const { data } = await api.GET("/webhook_endpoints", { params: { query: { limit: 100 } } });
  for (const e of data!.items)
    await api.DELETE("/webhook_endpoints/{webhook_id}", { params: { path: { webhook_id: e.id } } });
  for (let i = 0; i < n; i++) {
    const r = await api.POST("/webhook_endpoints/_create", {
      body: { url: `${receiverUrl}/e${i}`, event_types: ["inbound_shipment.items_arrived"] },
    });
    if (r.response.status !== 201) throw new Error(`cannot create an endpoint: ${JSON.stringify(r.error)}`);
  }
}

const ARRIVALS_PER_SHIPMENT = 20;

async function newShipment(): Promise<string> {
  const created = await merchant.POST("/inbound_shipments/_create", {
    body: { merchants_ref: "PO-BENCH-HOOKS", sender_name: "Bench Oy", products: [{ merchants_id: "S", qty: 1000 }] },
  });
  return created.data!.shipment_id;
}

/**
 * Records arrivals until `deadline`, one item at a time on shipments of its own (a new one every
 * ARRIVALS_PER_SHIPMENT: a shipment's answer lists all its arrivals); notes when each was answered.
 */
async function worker(
  w: LogisticsClient,
  deadline: number,
  answered: Map<string, number>,
  everyMs = 0,
): Promise<number> {
  let id = await newShipment();
  let n = 0;
  let next = now();
  while (now() < deadline) {
    if (everyMs) {
      next += everyMs;
      if (next > now()) await new Promise((r) => setTimeout(r, next - now()));
    }
    if (n > 0 && n % ARRIVALS_PER_SHIPMENT === 0) id = await newShipment();
    const r = await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
      params: { path: { shipment_id: id } },
      body: { arrivals: [{ merchants_id: "S", change: 1 }] },
    });
    const at = now();
    if (r.response.status !== 200) throw new Error(`arrival failed: ${r.response.status} ${JSON.stringify(r.error)}`);
    answered.set(`${id}:${r.data!.products[0]!.arrivedQty}`, at);
    n++;
  }
  return n;
}

async function run(s: Scenario) {
  await setEndpoints(s.endpoints);
  // Warm-up: connections, credentials cache, JIT.
  await Promise.all(Array.from({ length: s.workers }, () => worker(operator, now() + 1000, new Map())));
  await waitQuiet(1000);
  receipts = [];

  const answered = new Map<string, number>();
  const started = now();
  const everyMs = s.rate ? (s.workers / s.rate) * 1000 : 0;
  const counts = await Promise.all(
    Array.from({ length: s.workers }, () => worker(operator, started + DURATION_S * 1000, answered, everyMs)),
  );
  const arrivals = counts.reduce((a, b) => a + b, 0);
  const expected = arrivals * s.endpoints;
  const complete = await waitForReceipts(() => receipts.length >= expected, 60_000).then(
    () => true,
    () => false,
  );

  const mine = receipts.filter((r) => answered.has(r.key));
  const last = Math.max(...mine.map((r) => r.at));
  const latencies = mine.map((r) => r.at - answered.get(r.key)!).sort((a, b) => a - b);
  const seconds = (last - started) / 1000;
  console.log(
    `${s.name.padEnd(34)} ${(arrivals / DURATION_S).toFixed(0).padStart(5)} arrivals/s  ` +
      `${(mine.length / seconds).toFixed(0).padStart(5)} deliveries/s  ` +
      `latency p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms  max ${percentile(latencies, 100).toFixed(1)} ms` +
      `${complete ? "" : `  INCOMPLETE: ${mine.length}/${expected} delivered`}`,
  );
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const rate = mine.length / seconds;
  // Fan-out at saturation: arrivals recorded as fast as 8 workers can, each a delivery to every endpoint.
  const held = s.rate ? goal([">=", 1000, "/s", rate], ["<=", 50, " ms p50", p50], ["<=", 250, " ms p99", p99]) : {};
  results.push({
    case: `webhooks live, ${s.endpoints} endpoint${s.endpoints > 1 ? "s" : ""} (${s.rate ? `${s.rate} arrivals/s offered` : `${s.workers} workers recording arrivals as fast as they can`}), ${layout}`,
    target: databaseName,
    value: rate,
    unit: "deliveries/s",
    p50,
    p99,
    errors: expected - mine.length,
    note: `${(arrivals / DURATION_S).toFixed(0)} arrivals/s; latency = receipt minus the arrival's 200`,
    ...held,
  });
  if (!complete) problems.push(`${s.name}: ${mine.length}/${expected} delivered`);
}

async function waitForReceipts(done: () => boolean, timeoutMs: number): Promise<void> {
  const until = now() + timeoutMs;
  while (!done()) {
    if (now() > until) throw new Error("timeout");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Until no delivery has arrived for `quietMs`. */
async function waitQuiet(quietMs: number): Promise<void> {
  let seen = -1;
  while (receipts.length !== seen) {
    seen = receipts.length;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

/**
 * The dispatcher alone (PostgreSQL only: this process writes to the server's database): BACKLOG events
 * committed in one transaction through the outbox, then drained to BACKLOG_ENDPOINTS endpoints.
 */
async function backlog(BACKLOG_ENDPOINTS: number): Promise<void> {
  const handle = await openDatabase({ databaseUrl: databaseEnv.DATABASE_URL!, pgliteDir: "" });
  // Merchants of up to 20 endpoints each; the events are spread over them evenly.
  const merchants: string[] = [];
  for (let left = BACKLOG_ENDPOINTS, i = 0; left > 0; left -= MAX_ENDPOINTS, i++) {
    const id = i === 0 ? DEMO.merchantId : `bench-${i}.example.com`;
    if (i > 0) await provisionAccount(handle.db, "merchant", id, "bench-merchant-secret");
    await setEndpoints(
      Math.min(left, MAX_ENDPOINTS),
      i === 0 ? merchant : createLogisticsClient({ baseUrl, username: `M-${id}`, secret: "bench-merchant-secret" }),
    );
    merchants.push(id);
  }
  const perEvent = BACKLOG_ENDPOINTS / merchants.length;
  const events = Math.ceil(BACKLOG / perEvent);
  try {
    const shipment = newId();
    receipts = [];
    const trx = await handle.db.startTransaction().execute();
    for (let i = 1; i <= events; i++) {
      await recordEvent(trx, "inbound_shipment.items_arrived", merchants[i % merchants.length]!, new Date(), {
        shipment_id: shipment,
        merchants_ref: "PO-BACKLOG",
        status: "processing",
        arrivals: [{ merchants_id: "S", product_id: shipment, ts: "2016-01-20T09:12:01+00:00", change: 1 }],
        products: [{ merchants_id: "S", product_id: shipment, qty: events, arrivedQty: i }],
      });
    }
    await trx.commit().execute();
    const committed = now();
    const expected = events * perEvent;
    const complete = await waitForReceipts(() => receipts.length >= expected, 120_000).then(
      () => true,
      () => false,
    );
    const last = Math.max(...receipts.map((r) => r.at));
    const latencies = receipts.map((r) => r.at - committed).sort((a, b) => a - b);
    console.log(
      `${`drain: ${events} events x ${BACKLOG_ENDPOINTS} endpoints`.padEnd(34)}                 ${(receipts.length / ((last - committed) / 1000)).toFixed(0).padStart(5)} deliveries/s  ` +
        `from commit: p50 ${percentile(latencies, 50).toFixed(0)} ms  p99 ${percentile(latencies, 99).toFixed(0)} ms${complete ? "" : `  INCOMPLETE: ${receipts.length}/${expected}`}`,
    );
    const rate = receipts.length / ((last - committed) / 1000);
    const held = BACKLOG_ENDPOINTS === 1 ? goal([">=", 1000, "/s", rate]) : {};
    results.push({
      case: `webhooks drain, ${BACKLOG_ENDPOINTS} endpoint${BACKLOG_ENDPOINTS > 1 ? "s" : ""} ${merchants.length > 1 ? ` of ${merchants.length} merchants` : ""} (${events} events committed at once, ${expected} deliveries), ${layout}`,
      target: databaseName,
      value: rate,
      unit: "deliveries/s",
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors: expected - receipts.length,
      note: "latency = receipt minus the commit of the whole backlog",
      ...held,
    });
    if (!complete) problems.push(`drain to ${BACKLOG_ENDPOINTS} endpoints: ${receipts.length}/${expected} delivered`);
  } finally {
    await handle.close();
  }
}

console.log(
  `webhooks; database: ${adminUrl ? "postgres" : "pglite"}; ${DURATION_S} s per scenario; node ${process.version}; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
try {
  for (const s of SCENARIOS) await run(s);
  if (adminUrl) {
    for (const n of DRAINS) await backlog(n);
    // The same saturated fan-out and drain with the worker in a process of its own.
    await startServers(true);
    console.log("API and worker in two processes (SERVER_ROLE=api, SERVER_ROLE=worker):");
    for (const sc of SCENARIOS.slice(-2)) await run(sc);
    await backlog(1);
  }
} catch (err) {
  problems.push(`the run failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exitCode = 1;
} finally {
  await stopServers();
  receiver.disconnect();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await scratch?.drop();
}
writeResults({
  suite: "webhooks",
  title: "Webhook deliveries a second, and latency to the receiver",
  startedAt: startedAt.toISOString(),
  seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
  rows: results,
  notes: [`${DURATION_S} s per live scenario; the receiver answers 200 at once, in a process of its own`],
  problems,
});
