// SIGTERM drains: the server stops taking connections at once, finishes the request and the webhook
// delivery in flight, closes the database and exits 0 within its grace period; after a restart both are
// there, nothing half-done.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, expect, inject, it } from "vitest";
import { createLogisticsClient } from "../../client/index.ts";
import { COUNTERS_TABLE } from "../../server/db/counters.ts";
import { openDatabase } from "../../server/db/database.ts";
import { DEMO } from "../../server/demo.ts";
import { basicAuth } from "../helpers/fixtures.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { freePort, run, SERVER_MAIN, waitReady } from "./helpers.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-drain-"));
/**
 * A data directory of its own for each server, copied from the test set-up's migrated one: what is tested here is
 * stopping, and a fresh directory's initialisation cost every start seconds (start-and-cli tests the first start).
 */
function dataDir(name: string): string {
  const to = path.join(dir, name);
  cpSync(inject("pgliteTemplate"), to, { recursive: true });
  return to;
}
let rx: Receiver | undefined;
afterAll(async () => {
  await rx?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("SIGTERM: no new connections, the in-flight request and webhook delivery finish, exit 0, nothing lost", async () => {
  rx = await startReceiver();
  // The receiver takes 2 s to answer: the delivery is in flight when the signal comes.
  rx.respond = () => ({ status: 204, delayMs: 2_000 });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    PGLITE_DIR: dataDir("db"),
    DATABASE_URL: "",
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
  };
  const server = run(SERVER_MAIN, [], env);
  await waitReady(origin, server, 90_000);
  const m = createLogisticsClient({
    baseUrl: `${origin}/2015-01-01`,
    username: `M-${DEMO.merchantId}`,
    secret: DEMO.merchantSecret,
  });
  const ep = await m.POST("/webhook_endpoints/_create", {
    body: { url: rx.url("/drain"), event_types: ["inbound_shipment.status_changed"] },
  });
  expect(ep.response.status).toBe(201);
  expect(
    (await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.data!.id } } })).response
      .status,
  ).toBe(202);
  await rx.waitFor(1, { path: "/drain" });

  // A create whose body is still arriving.
  const body = JSON.stringify({
    merchants_ref: "DRAIN-1",
    sender_name: "Acme Supplies Oy",
    products: [{ merchants_id: "SKU-1", name: "Mug", qty: 3 }],
  });
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((r) => socket.once("connect", r));
  let answer = "";
  socket.on("data", (d) => (answer += d.toString()));
  socket.write(
    `POST /2015-01-01/inbound_shipments/_create HTTP/1.1\r\nHost: x\r\nAuthorization: ${basicAuth(`M-${DEMO.merchantId}`, DEMO.merchantSecret)}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
  );
  await new Promise((r) => setTimeout(r, 200));

  const signalled = Date.now();
  server.child.kill("SIGTERM");
  // No new connection is taken.
  await expect
    .poll(
      async () =>
        fetch(`${origin}/healthz`).then(
          () => "answered",
          () => "refused",
        ),
      { timeout: 3_000 },
    )
    .toBe("refused");
  // The request in flight is finished and answered.
  socket.write(body.slice(20));
  await expect.poll(() => answer, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 201 /);
  socket.end();
  expect(await server.exited).toBe(0);
  const tookMs = Date.now() - signalled;
  expect(tookMs).toBeGreaterThanOrEqual(1_500); // it waited for the receiver's answer...
  expect(tookMs).toBeLessThan(10_000); // ...within the grace period
  expect(server.output()).toContain("stopped");

  // After a restart: the shipment is there, and the delivery was recorded as done, not left in flight.
  const again = run(SERVER_MAIN, [], env);
  try {
    await waitReady(origin, again, 90_000);
    const list = await m.GET("/inbound_shipments", { params: { query: { limit: 100 } } });
    expect(list.data!.items.filter((s) => s.merchants_ref === "DRAIN-1")).toHaveLength(1);
    const deliveries = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
      params: { path: { webhook_id: ep.data!.id } },
    });
    expect(deliveries.data!.items.map((d) => [d.status, d.attempts, d.last_response_status])).toEqual([
      ["succeeded", 1, 204],
    ]);
    expect(rx.received.filter((x) => x.path === "/drain")).toHaveLength(1);
  } finally {
    again.child.kill("SIGTERM");
    await again.exited;
  }
}, 180_000);

it("SHUTDOWN_DRAIN_MS: a stopping server keeps serving for the drain, /readyz 503, each answer closing its connection, then exits 0", async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    PGLITE_DIR: dataDir("drain-db"),
    DATABASE_URL: "",
    SHUTDOWN_DRAIN_MS: "1500",
  };
  const server = run(SERVER_MAIN, [], env);
  await waitReady(origin, server, 90_000);
  const before = await fetch(`${origin}/healthz`);
  expect(before.headers.get("connection")).toBe("keep-alive");
  const stoppedAt = performance.now();
  server.child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 300));
  // Draining: still serving, but not ready, and not keeping connections.
  const ready = await fetch(`${origin}/readyz`);
  expect(ready.status).toBe(503);
  const api = await fetch(`${origin}/2015-01-01/inbound_shipments`, {
    headers: { Authorization: basicAuth(`M-${DEMO.merchantId}`, DEMO.merchantSecret) },
  });
  expect(api.status).toBe(200);
  expect(api.headers.get("connection")).toBe("close");
  expect(await server.exited).toBe(0);
  expect(performance.now() - stoppedAt).toBeGreaterThanOrEqual(1_500);
  // After the drain the port is closed.
  await expect(fetch(`${origin}/healthz`)).rejects.toThrow();
});

it("SIGTERM right after requests: the limits' last counts are stored before the database closes, with no warning", async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dbDir = dataDir("counts-db");
  const server = run(SERVER_MAIN, [], {
    PORT: String(port),
    PGLITE_DIR: dbDir,
    DATABASE_URL: "",
    RATE_LIMIT_PER_MINUTE: "1000",
  });
  await waitReady(origin, server, 90_000);
  const headers = { Authorization: basicAuth(`M-${DEMO.merchantId}`, DEMO.merchantSecret) };
  // Well within the limits' 100 ms flush interval: the signal comes before these counts were sent.
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${origin}/2015-01-01/inbound_shipments`, { headers });
    expect(res.status).toBe(200);
    bytes += (await res.arrayBuffer()).byteLength;
  }
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  expect(server.output()).not.toContain("could not share");

  const handle = await openDatabase({ pgliteDir: dbDir });
  try {
    const rows = await sql<{ key: string; points: number }>`
      select key, points from ${sql.table(COUNTERS_TABLE)} order by key`.execute(handle.db);
    expect(rows.rows).toEqual([
      { key: `requests:M-${DEMO.merchantId}`, points: 3 },
      { key: `response-bytes:M-${DEMO.merchantId}`, points: bytes },
    ]);
  } finally {
    await handle.close();
  }
}, 120_000);
