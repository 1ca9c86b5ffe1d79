// `npm run bench -- instances`: GET shipment on PostgreSQL served by one instance of the server, by two on the
// same database, and by one server of two processes on one port (WEB_CONCURRENCY=2, as `npm start` runs it), beside
// the bare Express app serving the same bytes, in interleaved rounds. Two instances get half the connections each.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogisticsClient } from "../../client/index.ts";
import { BASE_PATH } from "../../server/app.ts";
import { DEMO } from "../../server/demo.ts";
import { createScratchDatabase } from "../../tools/postgres.ts";
import { CASES } from "../cases.ts";
import { measure, type Figures } from "../measure.ts";
import { median } from "../report.ts";
import { writeResults, type ResultRow } from "../results.ts";
import { startBaseline, startServer, type Target } from "../targets.ts";

const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const databaseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const say = (s = "") => console.log(s);
const startedAt = new Date();
const problems: string[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), "logistics-bench-instances-"));
const running: Target[] = [];
const runs: Record<string, { rps: number; p50: number; p99: number; errors: number; ratio: number }[]> = {
  one: [],
  two: [],
  cluster: [],
  baseline: [],
};

const db = await createScratchDatabase(databaseUrl);
if ("unreachable" in db) throw new Error(`PostgreSQL unreachable: ${db.unreachable}`);
try {
  const stdout = process.env.BENCH_STDOUT === "pipe" ? "pipe" : "ignore";
  const a = await startServer("postgres", { database: { DATABASE_URL: db.url }, stdout });
  running.push(a);
  const b = await startServer("postgres", { database: { DATABASE_URL: db.url }, stdout });
  running.push(b);
  const c = await startServer("postgres", {
    database: { DATABASE_URL: db.url },
    stdout,
    env: { WEB_CONCURRENCY: "2" },
  });
  running.push(c);
  const getCase = CASES.find((c) => c.name === "get-shipment")!;
  const api = createLogisticsClient({
    baseUrl: a.origin + BASE_PATH,
    username: `M-${DEMO.merchantId}`,
    secret: DEMO.merchantSecret,
  });
  const req = getCase.request(await getCase.seed!(api));
  const res = await fetch(a.origin + req.path, { headers: req.headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET shipment: ${res.status} ${body.toString().slice(0, 300)}`);
  if ((await fetch(b.origin + req.path, { headers: req.headers }).then((r) => r.text())) !== body.toString())
    problems.push("the second instance answers differently");
  const baseline = await startBaseline(
    [
      {
        method: "GET",
        path: req.path,
        status: 200,
        contentType: res.headers.get("content-type") ?? "",
        body: body.toString("base64"),
      },
    ],
    scratch,
  );
  running.push(baseline);

  const half = Math.floor(CONNECTIONS / 2);
  const both = async (seconds: number): Promise<Figures[]> =>
    Promise.all([a, b].map((t) => measure(t.origin, req, { seconds, connections: half })));
  for (const t of [baseline, a, c]) await measure(t.origin, req, { seconds: 1, connections: CONNECTIONS });
  await both(1);
  say(
    `GET shipment on PostgreSQL, ${ROUNDS} round(s) x ${SECONDS} s, ${CONNECTIONS} connections (two instances: ${half} each)`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    const base = await measure(baseline.origin, req, { seconds: SECONDS, connections: CONNECTIONS });
    const one = await measure(a.origin, req, { seconds: SECONDS, connections: CONNECTIONS, pid: a.child.process.pid });
    const [x, y] = await both(SECONDS);
    const two = await measure(c.origin, req, { seconds: SECONDS, connections: CONNECTIONS });
    const add = (name: string, rps: number, p50: number, p99: number, errors: number) => {
      runs[name]!.push({ rps, p50, p99, errors, ratio: rps / base.rps });
      say(
        `round ${round}  ${name.padEnd(8)} ${rps.toFixed(0).padStart(6)} req/s  p50 ${p50.toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  ${(rps / base.rps).toFixed(2)}x`,
      );
    };
    add("baseline", base.rps, base.p50, base.p99, base.non2xx + base.errors);
    add("one", one.rps, one.p50, one.p99, one.non2xx + one.errors);
    // Latency of the two: the slower instance's, a conservative reading.
    add(
      "two",
      x!.rps + y!.rps,
      Math.max(x!.p50, y!.p50),
      Math.max(x!.p99, y!.p99),
      x!.non2xx + x!.errors + y!.non2xx + y!.errors,
    );
    add("cluster", two.rps, two.p50, two.p99, two.non2xx + two.errors);
  }
} catch (err) {
  problems.push(`the run failed: ${err instanceof Error ? err.stack : String(err)}`);
} finally {
  for (const t of running.reverse()) await t.child.stop();
  await db.drop().catch((err) => problems.push(`cleanup failed: ${err}`));
  rmSync(scratch, { recursive: true, force: true });
}

const med = (name: string, k: "rps" | "p50" | "p99" | "ratio") =>
  runs[name]!.length ? median(runs[name]!.map((r) => r[k])) : undefined;
const row = (name: string, caseName: string, target: string): ResultRow => ({
  case: caseName,
  target,
  rps: med(name, "rps"),
  p50: med(name, "p50"),
  p99: med(name, "p99"),
  errors: runs[name]!.reduce((n, r) => n + r.errors, 0),
  ratio: med(name, "ratio"),
});
for (const name of Object.keys(runs))
  if (runs[name]!.some((r) => r.errors)) problems.push(`${name}: non-2xx answers or connection errors`);
// No goal here: the targets are for one server process against the one-process bare app; several
// processes are measured beside it (issue 27).
writeResults({
  suite: "instances",
  title:
    "GET shipment on PostgreSQL: one instance of the server, two on the same database, and two processes on one port",
  startedAt: startedAt.toISOString(),
  seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
  rows: [
    row("baseline", "GET shipment", "baseline"),
    row("one", "GET shipment, one instance", "postgres"),
    row("two", "GET shipment, two instances", "postgres"),
    row("cluster", "GET shipment, WEB_CONCURRENCY=2", "postgres"),
  ],
  notes: [
    `${CONNECTIONS} connections; two instances get ${Math.floor(CONNECTIONS / 2)} each from two load generators in this process, req/s summed, latency of the slower one; WEB_CONCURRENCY=2 is one server of two processes on one port, all connections to it; rounds interleaved, median over ${ROUNDS}`,
  ],
  problems,
});
if (problems.length) {
  console.error(problems.join("\n"));
  process.exitCode = 1;
}
