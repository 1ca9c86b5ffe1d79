// What each step of GET shipment's edge costs: the server's app cut after each step of its pipeline
// (bench/micro/edge-server.ts, one process per cut, each ending in the floor's answer), beside the bare app and
// the server itself, rounds interleaved on one PostgreSQL database, 50 connections, CPU per request of each
// server process from /proc. A step's cost is its cut's CPU less the cut before it, both from the same rounds.
//   npm run bench -- edge [rounds] [seconds] [cuts, comma-separated]
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createScratchDatabase } from "../../tools/postgres.ts";
import { freePort, startChild, waitForHttp } from "../../tools/processes.ts";
import { MERCHANT_AUTH, type BenchRequest } from "../cases.ts";
import { demoShipment, getShipmentStatement } from "./get-shipment.ts";
import { measure } from "../measure.ts";
import { BENCH_MAIN_KEY, ROOT, startBaseline, startServer, type Target } from "../targets.ts";

const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 5);
// The steps that run with the server's defaults (the benchmark turns the request rate limit off, as its suites do).
const cuts = (
  process.argv[4] ??
  "none,log,metrics,preflight,route,authenticate,key origins,concurrency,body bytes,response bytes,checks,refusal pace,fair share,all"
).split(",");
const connections = 50;
const databaseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const scratchDir = path.join(ROOT, ".tmp", "bench-edge");
mkdirSync(scratchDir, { recursive: true });

const db = await createScratchDatabase(databaseUrl);
if ("unreachable" in db) throw new Error(`cannot reach PostgreSQL: ${db.unreachable}`);
const targets: Target<string>[] = [];
try {
  const server = await startServer("postgres", { database: { DATABASE_URL: db.url }, stdout: "ignore" });
  targets.push(server);
  const { id, path: p, answer } = await demoShipment(server.origin);
  const req: BenchRequest = { method: "GET", path: p, headers: MERCHANT_AUTH };
  targets.unshift(await startBaseline([answer], scratchDir));
  const statementFile = path.join(scratchDir, "get-shipment.json");
  writeFileSync(
    statementFile,
    JSON.stringify({ ...getShipmentStatement(id), authorization: MERCHANT_AUTH.authorization }),
  );
  for (const cut of cuts) {
    const port = await freePort();
    const child = startChild(
      cut,
      ["--import", "tsx", path.join(ROOT, "bench/micro/edge-server.ts"), String(port), cut, statementFile],
      {
        stdout: "ignore",
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          NODE_ENV: "production",
          // Production on PostgreSQL needs the main key of the secrets at rest, as the other suites' servers get.
          SECRETS_MAIN_KEY: BENCH_MAIN_KEY,
          RATE_LIMIT_PER_MINUTE: "0",
          // As the suites' servers: counted, never reached (the cuts share the database's windows with the server).
          RESPONSE_BYTES_PER_MINUTE: String(2 ** 31 - 1),
          BODY_BYTES_PER_MINUTE: String(2 ** 31 - 1),
        },
      },
    );
    const t: Target<string> = { name: cut, origin: `http://127.0.0.1:${port}`, pathFor: (x) => x, child };
    targets.push(t);
    await waitForHttp(child, `${t.origin}/`);
    const check = await fetch(t.origin + p, { headers: MERCHANT_AUTH });
    if (check.status !== 200) throw new Error(`the cut after ${cut} answered ${check.status}`);
  }

  for (const t of targets) await measure(t.origin, req, { seconds: 1, connections }); // warm-up
  const cpu: Record<string, number[]> = {};
  const rps: Record<string, number[]> = {};
  for (let r = 1; r <= rounds; r++) {
    for (const t of targets) {
      const f = await measure(t.origin, req, { seconds, connections, pid: t.child.process.pid });
      if (f.non2xx || f.errors) throw new Error(`${t.name}: ${f.non2xx} non-2xx, ${f.errors} errors`);
      (cpu[t.name] ??= []).push(f.cpu!.server);
      (rps[t.name] ??= []).push(f.rps);
    }
    console.log(`round ${r}: ${targets.map((t) => `${t.name} ${cpu[t.name]!.at(-1)}`).join(", ")}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const bare = median(cpu.baseline!);
  console.log(
    `\nmedian over ${rounds} rounds of ${seconds} s, ${connections} connections; step: the cut less the one before, per round`,
  );
  console.log("cut after          µs/request   x bare   req/s   step µs (median of the rounds' differences)");
  let previous: string | undefined;
  for (const t of targets) {
    const mine = cpu[t.name]!;
    const step =
      previous && cuts.includes(t.name) && t.name !== cuts[0]
        ? String(median(mine.map((x, i) => x - cpu[previous!]![i]!)))
        : "";
    console.log(
      `${t.name.padEnd(18)} ${String(median(mine)).padStart(10)}   ${(median(mine) / bare).toFixed(2).padStart(6)}   ${String(Math.round(median(rps[t.name]!))).padStart(5)}   ${step}`,
    );
    if (cuts.includes(t.name)) previous = t.name;
  }
} finally {
  for (const t of targets) await t.child.stop();
  await db.drop();
}
