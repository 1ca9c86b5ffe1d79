// How low the server's CPU per GET shipment can go on PostgreSQL: the bare app (the same bytes, no database),
// the floor (bench/micro/floor-server.ts: the one query and JSON, nothing else) and the server itself, rounds
// interleaved, CPU per request of each server process from /proc. What the floor spends above the bare app is
// the part of the target's budget no design of the edge can win back. With a third argument, another build of
// the server ("before": a tree's dist/server/main.js, built from its own node_modules with its own patches) runs
// in the same rounds on the same database: a lever's before and after, with the machine's noise hitting both.
// BENCH_FLOOR_CASE=create measures a create of 10 lines instead (no floor: the bare app replays one answer);
// BENCH_FLOOR_CASE=shipping GET /shipping_options for Helsinki 00100 on the demo directory (no floor either).
// BENCH_FLOOR_DB=pglite runs the servers on the embedded database instead (no floor), each on its own copy of
// one directory, so that both builds hold the same shipment.
// BENCH_BEFORE_NODE_FLAGS="--flag ..." runs the other build with these node flags instead of the start script's;
// BENCH_BEFORE_ENV="NAME=value ..." with these settings besides.
// BENCH_FLOOR_RATE=1000: open loop instead, that many requests a second over 10 connections (autocannon's bursts,
// section 17 of bench/levers.md), and each round's p99 beside the CPU; BENCH_FLOOR_POSTALCODE for the shipping case.
//   npm run bench -- floor [rounds] [seconds] [other dist/server/main.js]
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BASE_PATH } from "../../server/app.ts";
import { DEMO } from "../../server/demo.ts";
import { createLogisticsClient } from "../../client/index.ts";
import { createScratchDatabase } from "../../tools/postgres.ts";
import { freePort, startChild, waitForHttp } from "../../tools/processes.ts";
import { createShipment, MERCHANT_AUTH, SHIPMENT, type BenchRequest } from "../cases.ts";
import { measure } from "../measure.ts";
import { getShipmentStatement } from "./get-shipment.ts";
import { ROOT, startBaseline, startServer, type Target } from "../targets.ts";

const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 5);
const before = process.argv[4];
const creates = process.env.BENCH_FLOOR_CASE === "create";
const shipping = process.env.BENCH_FLOOR_CASE === "shipping";
const embedded = process.env.BENCH_FLOOR_DB === "pglite";
const rate = process.env.BENCH_FLOOR_RATE ? Number(process.env.BENCH_FLOOR_RATE) : undefined;
const connections = rate ? 10 : 50;
// As the inbound suite: the servers' logs go to a pipe drained here (a terminal, journald), BENCH_STDOUT=null for /dev/null.
const stdout = process.env.BENCH_STDOUT === "null" ? "ignore" : "pipe";
const databaseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const scratchDir = path.join(ROOT, ".tmp", "bench-floor");
mkdirSync(scratchDir, { recursive: true });

const db = await createScratchDatabase(databaseUrl);
if ("unreachable" in db) throw new Error(`cannot reach PostgreSQL: ${db.unreachable}`);
const targets: Target<string>[] = [];
try {
  const dirs = [path.join(scratchDir, "pglite-this"), path.join(scratchDir, "pglite-before")];
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  const databaseOf = (i: number) => (embedded ? { PGLITE_DIR: dirs[i]! } : { DATABASE_URL: db.url });
  const name = embedded ? "pglite" : "postgres";
  let server: Target<string> = await startServer(name, { database: databaseOf(0), stdout });
  const api = createLogisticsClient({
    baseUrl: server.origin + BASE_PATH,
    username: `M-${DEMO.merchantId}`,
    secret: DEMO.merchantSecret,
  });
  const id = await createShipment(api);
  if (embedded) {
    // The directory is one process's: copied while no server holds it, then each build opens its own.
    await server.child.stop();
    cpSync(dirs[0]!, dirs[1]!, { recursive: true });
    server = await startServer(name, { database: databaseOf(0), stdout });
  }
  targets.push(server);
  if (before)
    targets.push(
      await startServer("before", {
        database: databaseOf(1),
        stdout,
        entry: path.resolve(before),
        // BENCH_BEFORE_NODE_FLAGS: node's flags for the other build (space-separated; empty for none), to measure a flag.
        ...(process.env.BENCH_BEFORE_NODE_FLAGS !== undefined && {
          nodeFlags: process.env.BENCH_BEFORE_NODE_FLAGS.split(" ").filter(Boolean),
        }),
        // BENCH_BEFORE_ENV="NAME=value ...": settings for the other build only, to measure a setting (LOG_LEVEL=warn).
        ...(process.env.BENCH_BEFORE_ENV && {
          env: Object.fromEntries(
            process.env.BENCH_BEFORE_ENV.split(" ")
              .filter(Boolean)
              .map((kv): [string, string] => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
          ),
        }),
      }),
    );
  const p = creates
    ? `${BASE_PATH}/inbound_shipments/_create`
    : shipping
      ? `${BASE_PATH}/shipping_options?postalcode=${process.env.BENCH_FLOOR_POSTALCODE ?? "00100"}&country=FI`
      : `${BASE_PATH}/inbound_shipments/${id}`;
  const req: BenchRequest = creates
    ? {
        method: "POST",
        path: p,
        headers: { ...MERCHANT_AUTH, "content-type": "application/json" },
        body: JSON.stringify(SHIPMENT),
      }
    : { method: "GET", path: p, headers: MERCHANT_AUTH };
  const res = await fetch(server.origin + p, { method: req.method, headers: req.headers, body: req.body });
  const body = Buffer.from(await res.arrayBuffer());
  targets.unshift(
    await startBaseline(
      [
        {
          method: req.method,
          path: p,
          status: res.status,
          contentType: "application/json; charset=utf-8",
          body: body.toString("base64"),
        },
      ],
      scratchDir,
    ),
  );
  if (!creates && !shipping && !embedded) await startFloor(db.url, id, p, targets);

  for (const t of targets) await measure(t.origin, req, { seconds: 1, connections }); // warm-up
  const cpu: Record<string, number[]> = {};
  const rps: Record<string, number[]> = {};
  const pg: Record<string, number[]> = {};
  const p99: Record<string, number[]> = {};
  console.log("round  target     req/s   server µs/request   PostgreSQL µs/request   p99 ms");
  for (let r = 1; r <= rounds; r++) {
    for (const t of targets) {
      const f = await measure(t.origin, req, { seconds, connections, rate, pid: t.child.process.pid });
      if (f.non2xx || f.errors) throw new Error(`${t.name}: ${f.non2xx} non-2xx, ${f.errors} errors`);
      (cpu[t.name] ??= []).push(f.cpu!.server);
      (rps[t.name] ??= []).push(f.rps);
      (pg[t.name] ??= []).push(f.cpu!.database);
      (p99[t.name] ??= []).push(f.p99);
      console.log(
        `${String(r).padEnd(6)} ${t.name.padEnd(9)} ${String(Math.round(f.rps)).padStart(6)}   ${String(f.cpu!.server).padStart(17)}   ${String(f.cpu!.database).padStart(21)}   ${f.p99}`,
      );
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const bare = median(cpu.baseline!);
  console.log(
    `\nmedian over ${rounds} rounds of ${seconds} s, ${connections} connections${rate ? `, ${rate} req/s offered` : ""} (server CPU per request, x the bare app's):`,
  );
  for (const t of targets)
    console.log(
      `  ${t.name.padEnd(9)} ${String(median(cpu[t.name]!)).padStart(5)} µs  ${(median(cpu[t.name]!) / bare).toFixed(2)}x   ${Math.round(median(rps[t.name]!))} req/s   PostgreSQL ${median(pg[t.name]!)} µs   p99 ${median(p99[t.name]!)} ms`,
    );
} finally {
  for (const t of targets) await t.child.stop();
  await db.drop();
}

/** The floor server beside the bare app, sending the server's own GET statement (compiled here, not copied). */
async function startFloor(url: string, id: string, p: string, targets: Target<string>[]): Promise<void> {
  const statementFile = path.join(scratchDir, "get-shipment.json");
  writeFileSync(statementFile, JSON.stringify(getShipmentStatement(id)));
  const port = await freePort();
  const floor = startChild(
    "floor",
    [
      "--import",
      "tsx",
      path.join(ROOT, "bench/micro/floor-server.ts"),
      url,
      String(port),
      MERCHANT_AUTH.authorization,
      statementFile,
    ],
    { stdout: "ignore", cwd: ROOT },
  );
  const floorTarget: Target<string> = {
    name: "floor",
    origin: `http://127.0.0.1:${port}`,
    pathFor: (x) => x,
    child: floor,
  };
  targets.splice(1, 0, floorTarget);
  await waitForHttp(floor, `${floorTarget.origin}/`);
  const check = await fetch(floorTarget.origin + p, { headers: MERCHANT_AUTH });
  if (check.status !== 200) throw new Error(`the floor answered ${check.status}`);
}
