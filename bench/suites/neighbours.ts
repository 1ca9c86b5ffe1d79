// npm run bench:neighbours: a quiet merchant's reads while another merchant floods the server with heavy
// writes (212 KB orders on 20 connections), against the real server as `npm start` runs it (PGlite, or
// PostgreSQL with DATABASE_URL), with its default per-caller limits. Reports the quiet merchant's p50/p99
// alone and under the flood (their ratio is the figure: both from the same run on the same machine), and
// what the flood got (how much was accepted, how much refused with 429).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { readdirSync } from "node:fs";
import { formatSummary, summarise } from "../profile.ts";
import { ROOT, startServer } from "../targets.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const QUIET_CONNECTIONS = 4;
const NOISY_CONNECTIONS = 20;
const auth = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
const QUIET = auth("M-demo.example.com", "demo-secret-change-me");
const NOISY = auth("M-noisy.example.com", "noisy-secret-for-the-bench");

const dir = mkdtempSync(path.join(tmpdir(), "bench-neighbours-"));
const database = process.env.DATABASE_URL
  ? { DATABASE_URL: process.env.DATABASE_URL }
  : { PGLITE_DIR: path.join(dir, "db") };
const kind = process.env.DATABASE_URL ? "postgres" : "pglite";
// BENCH_PROFILE=1: a CPU profile of the server during the flood, summarised at the end (what bounds it).
const profileDir = process.env.BENCH_PROFILE ? path.join(dir, "profile") : undefined;

// The first start seeds the demo merchant; the noisy one is added by the operator CLI while no server runs (PGlite).
let server = await startServer(kind, { database, stdout: "ignore" });
await server.child.stop();
execFileSync(
  process.execPath,
  [
    "--import",
    "tsx",
    "server/cli.ts",
    "merchant",
    "create",
    "noisy.example.com",
    "--secret",
    "noisy-secret-for-the-bench",
  ],
  { cwd: ROOT, env: { ...process.env, ...database }, stdio: "ignore" },
);
server = await startServer(kind, { database, stdout: "ignore", ...(profileDir && { profileDir }) });

let floodWindow: [number, number] = [0, 0];
try {
  const base = `${server.origin}/2015-01-01`;
  const created = await fetch(`${base}/inbound_shipments/_create`, {
    method: "POST",
    headers: { authorization: QUIET, "content-type": "application/json" },
    body: JSON.stringify({
      merchants_ref: "BENCH-1",
      sender_name: "Acme Supplies Oy",
      products: [{ merchants_id: "SKU-1", name: "Blue T-shirt M", qty: 10 }],
    }),
  }).then((r) => r.json() as Promise<{ shipment_id: string }>);
  const read = { url: `${base}/inbound_shipments/${created.shipment_id}`, headers: { authorization: QUIET } };

  const heavyOrder = JSON.stringify({
    merchants_ref: "FLOOD",
    customer: { postalcode: "00100", country: "FI" },
    products: Array.from({ length: 500 }, (_, i) => ({
      merchants_id: `SKU-${i}`,
      name: `${"Heavy product name ".repeat(20)}${i}`.slice(0, 200),
      qty: 1,
      unit_price: 9.9,
      weight_g: 100,
    })),
  });

  const quiet = (duration: number) => autocannon({ ...read, connections: QUIET_CONNECTIONS, duration });
  // Warm-up, then the quiet merchant alone, then with the flood.
  await quiet(2);
  const alone = await quiet(SECONDS);
  const floodStart = Number(process.hrtime.bigint() / 1000n);
  const [together, flood] = await Promise.all([
    quiet(SECONDS),
    autocannon({
      url: `${base}/orders/_create`,
      method: "POST",
      headers: { authorization: NOISY, "content-type": "application/json" },
      body: heavyOrder,
      connections: NOISY_CONNECTIONS,
      duration: SECONDS,
    }),
  ]);

  floodWindow = [floodStart, Number(process.hrtime.bigint() / 1000n)];
  const statuses = (r: autocannon.Result) =>
    Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  console.log(`bench:neighbours on ${kind}, ${SECONDS} s per phase, node ${process.version}`);
  console.log(`quiet merchant GET one shipment, ${QUIET_CONNECTIONS} connections:`);
  console.log(
    `  alone:        p50 ${alone.latency.p50} ms, p99 ${alone.latency.p99} ms, ${Math.round(alone.requests.average)} req/s, statuses ${JSON.stringify(statuses(alone))}`,
  );
  console.log(
    `  under flood:  p50 ${together.latency.p50} ms, p99 ${together.latency.p99} ms, ${Math.round(together.requests.average)} req/s, statuses ${JSON.stringify(statuses(together))}`,
  );
  console.log(
    `  p99 ratio (flood / alone): ${(together.latency.p99 / Math.max(1, alone.latency.p99)).toFixed(1)}; goal: p99 under flood <= 100 ms -> ${together.latency.p99 <= 100 ? "met" : "MISSED"}`,
  );
  console.log(
    `noisy merchant POST ${(heavyOrder.length / 1024).toFixed(0)} KB orders, ${NOISY_CONNECTIONS} connections: ${flood.requests.total} requests, statuses ${JSON.stringify(statuses(flood))}`,
  );
} finally {
  await server.child.stop();
  if (profileDir) {
    for (const f of readdirSync(profileDir).filter((x) => x.endsWith(".cpuprofile"))) {
      console.log(
        formatSummary(
          `server CPU profile (${kind}) during the flood`,
          summarise(path.join(profileDir, f), [floodWindow], 25),
        ),
      );
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
