// `npm run bench`: throughput and latency of the main inbound operations on a throw-away database.
// Figures depend on the machine: compare runs made in one session, not against other machines.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { BASE_PATH } from "../server/app.ts";
import { DEMO } from "../server/demo.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PORT = Number(process.env.BENCH_PORT ?? 3917);

// The server runs in its own process, started as `npm start` does, so the load generator does not
// share its event loop. PGlite on a fresh directory unless DATABASE_URL is set.
const dir = mkdtempSync(path.join(tmpdir(), "logistics-bench-"));
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", PGLITE_DIR: path.join(dir, "db"), LOG_LEVEL: "warn", SEED_DEMO: "true", RATE_LIMIT_PER_MINUTE: "0" },
  stdio: ["ignore", "ignore", "inherit"],
});
const origin = `http://127.0.0.1:${PORT}`;
const base = origin + BASE_PATH;
for (let i = 0; ; i++) {
  if (await fetch(`${origin}/readyz`).then((r) => r.ok, () => false)) break;
  if (i > 300) throw new Error("server did not start");
  await new Promise((r) => setTimeout(r, 100));
}
const auth = (u: string, s: string) => `Basic ${Buffer.from(`${u}:${s}`).toString("base64")}`;
const merchant = { authorization: auth(`M-${DEMO.merchantId}`, DEMO.merchantSecret), "content-type": "application/json" };
const operator = { authorization: auth(`W-${DEMO.operatorId}`, DEMO.operatorSecret), "content-type": "application/json" };

const body = JSON.stringify({
  merchants_ref: "PO-BENCH",
  sender_name: "Bench Supplies Oy",
  products: Array.from({ length: 5 }, (_, i) => ({ merchants_id: `SKU-${i}`, name: `Product ${i}`, gtin: "", qty: 100 })),
});
const created = await fetch(`${base}/inbound_shipments/_create`, { method: "POST", headers: merchant, body });
const { shipment_id } = (await created.json()) as { shipment_id: string };

async function run(title: string, opts: autocannon.Options) {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  const non2xx = r.non2xx + r.errors;
  console.log(`${title.padEnd(34)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx/errors ${non2xx}`);
}

console.log(`database: ${process.env.DATABASE_URL ? "postgres" : "pglite"}; ${CONNECTIONS} connections, ${DURATION} s each; node ${process.version}`);
await run("GET /healthz (no validation)", { url: `${base.replace(BASE_PATH, "")}/healthz` });
await run("GET /inbound_shipments/{id}", { url: `${base}/inbound_shipments/${shipment_id}`, headers: merchant });
await run("POST /inbound_shipments/_create", { url: `${base}/inbound_shipments/_create`, method: "POST", headers: merchant, body });
await run("POST arrivals, one shipment (row lock)", {
  url: `${base}/inbound_shipments/${shipment_id}/arrivals`, method: "POST", headers: operator,
  body: JSON.stringify({ arrivals: [{ merchants_id: "SKU-0", change: 1 }] }),
});

server.kill("SIGTERM");
await new Promise((r) => server.once("exit", r));
rmSync(dir, { recursive: true, force: true });
