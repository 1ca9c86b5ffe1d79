// Two API processes and a worker behind HAProxy (Debian's, installed by .ci/run), configured by
// deploy/haproxy.cfg as the operating docs give it (issue 30). Under a steady mixed load through the proxy one
// API process is stopped gracefully (and started again), then the other is killed: every request a client saw
// acknowledged is stored, the only failures are requests that were in flight at the killed process, and the
// worker's webhooks keep flowing. PostgreSQL only: PGlite belongs to one process.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLogisticsClient, type LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { freePort, startServerProcess, type ServerProcess } from "./helpers.ts";

const HAPROXY = "/usr/sbin/haproxy";
const CONFIG = path.resolve(import.meta.dirname, "../../deploy/haproxy.cfg");
const API = { SERVER_ROLE: "api", TRUST_PROXY: "loopback", SHUTDOWN_DRAIN_MS: "1000", RATE_LIMIT_PER_MINUTE: "0" };
const CLIENTS = 8;

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let rx: Receiver;
let proxy: ChildProcess;
let proxyOutput = "";
let origin: string;
const ports: number[] = [];
const running: ServerProcess[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  rx = await startReceiver();
  await provisionAccount(handle.db, "merchant", "proxied.example.com", "proxied-secret-1");
  await provisionAccount(handle.db, "operator", "proxied-dock", "proxied-secret-2");
  const env = { DATABASE_URL: handle.url!, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" };
  ports.push(await freePort(), await freePort());
  running.push(
    ...(await Promise.all([
      startServerProcess({ ...env, ...API }, ports[0]),
      startServerProcess({ ...env, ...API }, ports[1]),
      startServerProcess({ ...env, SERVER_ROLE: "worker", WEBHOOK_RETRY_SCHEDULE: "0.05,0.1" }),
    ])),
  );
  const listen = await freePort();
  origin = `http://127.0.0.1:${listen}`;
  proxy = spawn(HAPROXY, ["-db", "-f", CONFIG], {
    env: {
      ...process.env,
      LISTEN_ADDR: `127.0.0.1:${listen}`,
      API_1: `127.0.0.1:${ports[0]}`,
      API_2: `127.0.0.1:${ports[1]}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proxy.stdout!.on("data", (d) => (proxyOutput += d));
  proxy.stderr!.on("data", (d) => (proxyOutput += d));
  const until = Date.now() + 10_000;
  while ((await fetch(`${origin}/readyz`).catch(() => undefined))?.status !== 200) {
    if (Date.now() > until) throw new Error(`HAProxy not serving:\n${proxyOutput}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  proxy?.kill("SIGKILL");
  await Promise.all(running.map((s) => s.stop()));
  await rx?.close();
  await handle?.close();
});

interface Outcome {
  kind: "create" | "arrival";
  shipment?: string;
  started: number;
  ended: number;
  ok: boolean;
  what: string;
}

it("a graceful stop loses nothing; a kill fails only what the killed process had in flight; webhooks keep flowing", async () => {
  const client = (u: string, s: string): LogisticsClient =>
    createLogisticsClient({ baseUrl: `${origin}/2015-01-01`, username: u, secret: s });
  const m = client("M-proxied.example.com", "proxied-secret-1");
  const w = client("W-proxied-dock", "proxied-secret-2");
  const ep = await m.POST("/webhook_endpoints/_create", {
    body: { url: rx.url("/proxied"), event_types: ["inbound_shipment.items_arrived"] },
  });
  expect(ep.response.status).toBe(201);

  const outcomes: Outcome[] = [];
  const shipments: string[] = [];
  let stop = false;
  const timed = async (kind: Outcome["kind"], shipment: string | undefined, call: () => Promise<Response>) => {
    const started = performance.now();
    const o: Outcome = { kind, shipment, started, ended: 0, ok: false, what: "" };
    try {
      const res = await call();
      o.ok = res.status >= 200 && res.status < 300;
      o.what = String(res.status);
    } catch (err) {
      o.what = (err as Error).message;
    }
    o.ended = performance.now();
    outcomes.push(o);
    return o;
  };
  const loop = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const shipment = shipments[(n + i) % Math.max(1, shipments.length)];
      if (i % 3 === 0 || !shipment) {
        let id: string | undefined;
        await timed("create", undefined, async () => {
          const r = await m.POST("/inbound_shipments/_create", {
            body: { merchants_ref: `PX-${n}-${i}`, sender_name: "A", products: [{ merchants_id: "S", qty: 1000 }] },
          });
          id = r.data?.shipment_id;
          return r.response;
        }).then((o) => {
          if (o.ok && id) {
            o.shipment = id;
            shipments.push(id);
          }
        });
      } else {
        await timed(
          "arrival",
          shipment,
          async () =>
            (
              await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
                params: { path: { shipment_id: shipment } },
                body: { arrivals: [{ merchants_id: "S", change: 1 }] },
              })
            ).response,
        );
      }
    }
  };
  const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => loop(n)));
  // Until more than `count` requests started after `from` succeeded (a loaded machine answers fewer a second
  // than a fixed sleep assumes), at most 20 s.
  const okSince = (from: number) => outcomes.filter((o) => o.ok && o.started >= from).length;
  const untilOk = async (from: number, count = 25) => {
    const deadline = performance.now() + 20_000;
    while (okSince(from) <= count && performance.now() < deadline) await sleep(50);
  };

  await untilOk(0);
  // A rolling restart of the first API process: SIGTERM, it drains and exits, and starts again on its port.
  const first = running[0]!;
  const gracefulAt = performance.now();
  expect(await first.stop()).toBe(0);
  running[0] = await startServerProcess(
    { DATABASE_URL: handle.url!, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", ...API, LOG_LEVEL: "info" },
    ports[0],
  );
  // HAProxy takes it back after two good checks (250 ms apart; longer on a loaded machine): it is back once a
  // client's request reached it through the proxy (its log names each request).
  const restarted = running[0];
  const until = performance.now() + 20_000;
  while (!restarted.proc.output().includes('"url":"/2015-01-01/') && performance.now() < until) await sleep(50);
  expect(restarted.proc.output()).toContain('"url":"/2015-01-01/');
  const restartedAt = performance.now();
  // The second one dies.
  const second = running[1]!;
  const killedAt = performance.now();
  second.proc.child.kill("SIGKILL");
  await second.proc.exited;
  await untilOk(killedAt + 500);
  stop = true;
  await load;

  const failed = outcomes.filter((o) => !o.ok);
  const during = (from: number, to: number) => outcomes.filter((o) => o.started >= from && o.started < to);
  // Traffic flowed throughout: before, during the restart, and after the kill.
  expect(during(0, gracefulAt).filter((o) => o.ok).length).toBeGreaterThan(20);
  expect(during(gracefulAt, restartedAt).filter((o) => o.ok).length).toBeGreaterThan(20);
  expect(during(killedAt + 500, Infinity).filter((o) => o.ok).length).toBeGreaterThan(20);
  // No failure around the graceful stop; at the kill, at most the requests in flight at that moment (the
  // killed process had some of the clients' requests, at most one per client): those started before the kill
  // (and within the moment HAProxy takes to see the process's sockets closed) and ended after it.
  const detail = JSON.stringify(
    failed.map((o) => ({ ...o, started: o.started - killedAt, ended: o.ended - killedAt })),
  );
  expect(failed.length, detail).toBeLessThanOrEqual(CLIENTS);
  for (const o of failed) {
    expect(o.started, detail).toBeLessThan(killedAt + 250);
    expect(o.ended, detail).toBeGreaterThanOrEqual(killedAt);
  }

  // Every acknowledged write is stored: each created shipment, and at least every acknowledged arrival (a
  // request that failed at the kill may or may not have been committed before it).
  const acknowledged = new Map<string, number>();
  const unknown = new Map<string, number>();
  for (const o of outcomes.filter((x) => x.kind === "arrival")) {
    const into = o.ok ? acknowledged : unknown;
    into.set(o.shipment!, (into.get(o.shipment!) ?? 0) + 1);
  }
  for (const id of shipments) {
    const r = await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
    expect(r.response.status).toBe(200);
    const arrived = r.data!.products[0]!.arrivedQty;
    expect(arrived).toBeGreaterThanOrEqual(acknowledged.get(id) ?? 0);
    expect(arrived).toBeLessThanOrEqual((acknowledged.get(id) ?? 0) + (unknown.get(id) ?? 0));
  }

  // The worker delivered an event for each stored arrival, those after the kill too.
  const arrivalsAcknowledged = [...acknowledged.values()].reduce((a, b) => a + b, 0);
  await rx.waitFor(arrivalsAcknowledged, { path: "/proxied", timeoutMs: 30_000 });
  expect(rx.received.filter((r) => r.path === "/proxied" && r.at >= killedAt).length).toBeGreaterThan(0);
  expect(proxyOutput).not.toMatch(/\[ALERT\]/);
});
