// `npm run bench`: the server on PostgreSQL and on PGlite beside the anchors (bench/anchors/: a bare Express app
// and node's own http serving the same bytes, a Fastify + pg route doing the same read, and Prism's mock), in
// interleaved rounds so that each figure has its anchors from its own round.
// The machine is shared and noisy: the ratios of one run are the figures that count, not absolute req/s.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createLogisticsClient } from "../../client/index.ts";
import { BASE_PATH } from "../../server/app.ts";
import { DEMO } from "../../server/demo.ts";
import type { CapturedResponse } from "../anchors/express-bytes.ts";
import {
  MERCHANT_AUTH,
  SERVER_TARGETS,
  SHIPMENT,
  type BenchCase,
  type BenchRequest,
  type ServerTarget,
  type TargetName,
} from "../cases.ts";
import { measure, type Figures } from "../measure.ts";
import { parseOptions } from "../options.ts";
import { createScratchDatabase } from "../../tools/postgres.ts";
import { formatSummary as formatProfile, summarise as summariseProfile, type ProfileSummary } from "../profile.ts";
import {
  banner,
  failures,
  formatSummary,
  median,
  ratioToAnchor,
  summarise,
  tableHeader,
  tableRow,
  type Row,
  type SummaryRow,
} from "../report.ts";
import { goal, writeResults } from "../results.ts";
import { getShipmentStatement } from "../micro/get-shipment.ts";
import { ROOT, startBaseline, startFastify, startNodeBytes, startPrism, startServer, type Target } from "../targets.ts";

const opts = parseOptions();

const startedAt = new Date();
const stamp = startedAt.toISOString().replace(/[:.]/g, "-");
const outDir = path.join(ROOT, ".tmp");
const scratch = mkdtempSync(path.join(tmpdir(), "logistics-bench-"));
const targets = new Map<TargetName, Target>();
const profileDirs = new Map<ServerTarget, string>();
const windows = new Map<TargetName, [number, number][]>();
const warnings: string[] = [];
const notes: string[] = [];
const teardown: (() => Promise<void>)[] = [];
const applies = (c: BenchCase, t: TargetName) => c.targets.includes(t) && opts.targets.includes(t);
const say = (s = "") => console.log(s);

say(
  `bench: ${opts.cases.map((c) => c.name).join(", ")} on ${opts.targets.join(", ")}; ${opts.rounds} round(s) x ${opts.seconds} s (+${opts.warmupSeconds} s warm-up), ${opts.connections} connections`,
);
say(
  `node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      " ",
    )}; server stdout: ${opts.serverStdout === "pipe" ? "a pipe drained by this process (like a terminal)" : "/dev/null"}${opts.profile ? "; CPU profiling on (slows the servers a little)" : ""}`,
);

// Per case and target: the request sent, and what one request got before measuring.
const requests = new Map<string, BenchRequest>();
const checks: Record<string, Record<string, { status: number; contentType: string; bytes: number }>> = {};
const rows: Row[] = [];
const profiles: (ProfileSummary & { target: string })[] = [];
let stopping = false;
/** The PostgreSQL target's database: the Fastify anchor reads the same rows. */
let postgresUrl: string | undefined;

async function startServers(): Promise<Target[]> {
  const started: Target[] = [];
  for (const name of SERVER_TARGETS.filter((t) => opts.targets.includes(t))) {
    const target = await startOne(name, true);
    if (target) started.push(target);
  }
  // The baseline needs a real server's bytes and Prism a seeded request: start PGlite for that if none runs.
  if (!started.length && opts.cases.some((c) => applies(c, "baseline") || applies(c, "prism")))
    started.push((await startOne("pglite", false))!);
  return started;
}

async function startOne(name: ServerTarget, measured: boolean): Promise<Target | undefined> {
  let database: { DATABASE_URL: string } | { PGLITE_DIR: string };
  if (name === "postgres") {
    const db = await createScratchDatabase(opts.databaseUrl);
    if ("unreachable" in db) {
      const line = `postgres: SKIPPED, cannot reach ${opts.databaseUrl.replace(/\/\/[^@/]*@/, "//…@")} (${db.unreachable})`;
      notes.push(line);
      say(line);
      return undefined;
    }
    teardown.push(db.drop);
    database = { DATABASE_URL: db.url };
    if (measured) postgresUrl = db.url;
  } else {
    database = { PGLITE_DIR: path.join(scratch, name) };
  }
  const profileDir = opts.profile && measured ? path.join(outDir, "profiles", `${stamp}-${name}`) : undefined;
  if (profileDir) profileDirs.set(name, profileDir);
  const t0 = Date.now();
  const target = await startServer(name, {
    database,
    stdout: opts.serverStdout === "pipe" ? "pipe" : "ignore",
    profileDir,
    ...(name !== "postgres" && {
      env: { PGLITE_DURABILITY: name === "pglite-relaxed" ? "relaxed" : "durable" },
    }),
  });
  targets.set(name, target);
  say(
    `${name}: ready in ${((Date.now() - t0) / 1000).toFixed(1)} s on ${target.origin}${measured ? "" : " (only as the source of the baseline's bytes; not measured)"}`,
  );
  return target;
}

async function check(c: BenchCase, t: Target, req: BenchRequest): Promise<CapturedResponse> {
  const res = await fetch(t.origin + t.pathFor(req.path), { method: req.method, headers: req.headers, body: req.body });
  const body = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get("content-type") ?? "";
  (checks[c.name] ??= {})[t.name] = { status: res.status, contentType, bytes: body.length };
  if (res.status < 200 || res.status > 299) {
    warnings.push(`${c.name} on ${t.name}: the check request got ${res.status} ${body.toString().slice(0, 300)}`);
  }
  return { method: req.method, path: req.path, status: res.status, contentType, body: body.toString("base64") };
}

async function run(): Promise<void> {
  const servers = await startServers();
  const reference = servers[0];

  const captured: CapturedResponse[] = [];
  for (const c of opts.cases) {
    for (const server of servers) {
      if (!applies(c, server.name) && server !== reference) continue;
      const api = createLogisticsClient({
        baseUrl: server.origin + BASE_PATH,
        username: `M-${DEMO.merchantId}`,
        secret: DEMO.merchantSecret,
      });
      const state = c.seed ? await c.seed(api) : undefined;
      const req = c.request(state);
      requests.set(`${c.name}/${server.name}`, req);
      const response = await check(c, server, req);
      if (server === reference) {
        captured.push(response);
        // The anchors serve the one answer captured: a spread case's anchors get its first path, in the same way.
        const anchored = req.spread ? { ...req, spread: [req.path] } : req;
        requests.set(`${c.name}/baseline`, anchored);
        requests.set(`${c.name}/prism`, anchored);
      }
    }
  }

  if (opts.cases.some((c) => applies(c, "baseline"))) {
    targets.set("baseline", await startBaseline(captured, scratch));
  }
  if (opts.cases.some((c) => applies(c, "node"))) {
    targets.set("node", await startNodeBytes(captured, scratch));
    for (const c of opts.cases)
      if (applies(c, "node")) requests.set(`${c.name}/node`, requests.get(`${c.name}/baseline`)!);
  }
  await startFastifyAnchor();
  if (opts.cases.some((c) => applies(c, "prism"))) targets.set("prism", await startPrism());
  for (const c of opts.cases) {
    for (const name of ANCHORS) {
      const t = targets.get(name);
      if (t && applies(c, name)) await check(c, t, requests.get(`${c.name}/${name}`)!);
    }
  }

  say();
  for (const c of opts.cases) {
    const sizes = Object.entries(checks[c.name] ?? {})
      .map(([t, r]) => `${t} ${r.status} ${r.bytes} B`)
      .join(", ");
    say(`${c.name}: ${c.title}; one request each: ${sizes}${c.note ? `\n  note: ${c.note}` : ""}`);
  }

  const plan = (round: number) =>
    opts.cases.flatMap((c) =>
      opts.targets.filter((t) => applies(c, t) && targets.has(t)).map((t) => ({ round, c, t: targets.get(t)! })),
    );
  if (opts.warmupSeconds > 0) {
    say(`\nwarming up (${opts.warmupSeconds} s per case and target)…`);
    for (const { c, t } of plan(0))
      await (c.measure ?? measure)(t.origin, routed(c, t), {
        seconds: opts.warmupSeconds,
        connections: opts.connections,
      });
  }

  say(`\n${tableHeader()}`);
  for (let round = 1; round <= opts.rounds && !stopping; round++) {
    const baselineRps = new Map<string, number>();
    for (const { c, t } of plan(round)) {
      if (stopping) break;
      const figures: Figures = await (c.measure ?? measure)(t.origin, routed(c, t), {
        seconds: opts.seconds,
        connections: opts.connections,
        pid: t.child.process.pid,
      });
      (windows.get(t.name) ?? windows.set(t.name, []).get(t.name)!).push(figures.window);
      if (t.name === "baseline") baselineRps.set(c.name, figures.rps);
      const base = baselineRps.get(c.name);
      const { window: _, ...rest } = figures;
      const row: Row = {
        round,
        case: c.name,
        target: t.name,
        ...rest,
        ratio: base ? figures.rps / base : null,
        load: loadavg()[0]!,
      };
      rows.push(row);
      say(tableRow(row));
    }
  }
}

const ANCHORS = ["baseline", "node", "fastify", "prism"] as const;

/** The Fastify + pg peer reads the PostgreSQL target's rows, each case's own shipment, by the server's statement. */
async function startFastifyAnchor(): Promise<void> {
  const cases = opts.cases.filter((c) => applies(c, "fastify"));
  if (!cases.length) return;
  const ids = cases.map((c) => requests.get(`${c.name}/postgres`)?.path.split("/").pop());
  if (!postgresUrl || ids.some((id) => !id)) {
    notes.push("fastify: not measured (it reads PostgreSQL's rows: run with the postgres target)");
    return;
  }
  // The statement takes the shipment id from the path; the rest (the demo merchant) is the same for every case.
  targets.set(
    "fastify",
    await startFastify(postgresUrl, MERCHANT_AUTH.authorization, getShipmentStatement(ids[0]!), scratch),
  );
  for (const c of cases) requests.set(`${c.name}/fastify`, requests.get(`${c.name}/postgres`)!);
}

/** The case's request as this target takes it. */
function routed(c: BenchCase, t: Target): BenchRequest {
  const req = requests.get(`${c.name}/${t.name}`)!;
  return { ...req, path: t.pathFor(req.path) };
}

async function stopAll(): Promise<void> {
  for (const t of targets.values()) {
    const how = await t.child.stop();
    const logged = t.child.stdoutBytes();
    if (how !== "exit code 0" && t.name !== "prism")
      warnings.push(`${t.name} did not stop cleanly: ${how}\n${t.child.tail()}`);
    if (
      SERVER_TARGETS.includes(t.name as ServerTarget) &&
      opts.targets.includes(t.name) &&
      opts.serverStdout === "pipe"
    )
      notes.push(`${t.name} wrote ${(logged / 1e6).toFixed(1)} MB to stdout`);
  }
  for (const step of teardown.reverse()) await step().catch((err) => warnings.push(`cleanup failed: ${err}`));
  rmSync(scratch, { recursive: true, force: true });
}

process.once("SIGINT", () => {
  stopping = true;
  say("\ninterrupted: finishing the current run, then stopping the servers");
});

let failed: string | undefined;
try {
  await run();
} catch (err) {
  failed = (err instanceof Error && err.stack) || String(err);
} finally {
  await stopAll();
}

for (const [target, dir] of profileDirs) {
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 serves requests; tsx's module loader runs on another.
  const files = readdirSync(dir).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f));
  if (!files.length) warnings.push(`${target}: no CPU profile of the main thread written in ${dir}`);
  for (const f of files) profiles.push({ target, ...summariseProfile(path.join(dir, f), windows.get(target)) });
}

const summary = summarise(rows);
if (rows.length)
  say(
    `\nsummary: median over ${opts.rounds} round(s); x baseline = req/s over the same round's bare Express app serving the same bytes\n${formatSummary(summary)}`,
  );
const toAnchor = (caseName: string, target: string, anchor: string, of: "rps" | "cpu" = "rps") =>
  ratioToAnchor(rows, caseName, target, anchor, of);
if (rows.length) {
  const fmt = (x: number | null) => (x === null ? "-" : `${x.toFixed(2)}x`);
  say("\nratios to each anchor (median of the rounds' ratios; CPU = server CPU per request over the anchor's):");
  for (const s of summary.filter((x) => !(ANCHORS as readonly string[]).includes(x.target)))
    say(
      `  ${s.case.padEnd(18)} ${s.target.padEnd(8)} x Express ${fmt(s.medianRatio)}  x node ${fmt(toAnchor(s.case, s.target, "node"))}  x Fastify ${fmt(toAnchor(s.case, s.target, "fastify"))} (CPU ${fmt(toAnchor(s.case, s.target, "fastify", "cpu"))})${s.target === "pglite" ? `  x relaxed ${fmt(toAnchor(s.case, s.target, "pglite-relaxed"))}` : ""}`,
    );
}
const busiest = Math.max(...rows.map((r) => r.load));
// The benchmark alone makes a load of about 2-3 (load generator, server, database).
if (busiest > 2 * cpus().length)
  notes.push(
    `the machine was busy (1-minute load up to ${busiest.toFixed(1)} on ${cpus().length} cores): under contention the heavier targets' ratios drop too`,
  );
for (const n of notes) say(n);
for (const p of profiles) say(`\n${formatProfile(`CPU profile of ${p.target} (${path.relative(ROOT, p.file)})`, p)}`);

const problems = [...failures(rows), ...warnings];
if (failed) problems.unshift(`the run failed: ${failed}`);
if (problems.length) {
  console.error(`\n${banner(problems)}`);
  process.exitCode = 1;
}

// The issue's targets for this suite's figures (issue 27), checked in the report: req/s over the bare app's and
// Prism's in the same rounds, and CPU per request over the bare app's (server, and PostgreSQL's for a create).
const cpuOver = (s: SummaryRow, of: "server" | "database"): number | undefined => {
  const bare = summary.find((b) => b.case === s.case && b.target === "baseline")?.cpu?.server;
  const ours = s.cpu?.[of];
  return bare && ours !== undefined ? ours / bare : undefined;
};
// The issue's targets (issue 53) for this suite's figures, checked in the report: GET shipment on PostgreSQL against
// the Fastify + pg peer's req/s and server CPU per request; the rest against the bare Express app's, same rounds.
const GOALS: Record<string, (s: SummaryRow, prism: number | null) => ReturnType<typeof goal>> = {
  "get-shipment/postgres": (s) =>
    goal(
      [">=", 1.0, "x Fastify", toAnchor(s.case, s.target, "fastify")],
      ["<=", 1.0, "x Fastify's CPU", toAnchor(s.case, s.target, "fastify", "cpu")],
    ),
  "get-shipment-1000/postgres": (s) => goal(["<=", 10, " ms p99", s.medianP99]),
  "get-shipment/pglite": (s) => goal([">=", 0.6, "x", s.medianRatio]),
  "create-shipment/postgres": (s) => goal([">=", 0.5, "x", s.medianRatio]),
  // Issue 52: durable commits cost at most 20% of the creates a second, measured in the same rounds, same disk.
  "create-shipment/pglite": (s) => goal([">=", 0.8, "x relaxed", toAnchor(s.case, s.target, "pglite-relaxed")]),
};
const prismRatio = (caseName: string, target: string): number | null => {
  const perRound = rows
    .filter((r) => r.case === caseName && r.target === target)
    .flatMap((r) => {
      const prism = rows.find((p) => p.case === caseName && p.target === "prism" && p.round === r.round);
      return prism && prism.rps > 0 ? [r.rps / prism.rps] : [];
    });
  return perRound.length ? median(perRound) : null;
};
const titles: Record<string, string> = {
  "get-shipment": "GET shipment",
  "get-shipment-1000": "GET shipment at an offered 1,000 req/s",
  "create-shipment": `create shipment (${SHIPMENT.products.length} lines)`,
  healthz: "GET /healthz",
};
// BENCH_RESULTS_AS: the profiled passes of a full run write their results under another name than the measured one.
const resultsAs = process.env.BENCH_RESULTS_AS || "inbound";
writeResults({
  suite: resultsAs,
  title:
    resultsAs === "inbound"
      ? "Inbound shipments: one read, one create, the health check"
      : `${opts.cases.map((c) => titles[c.name] ?? c.name).join(", ")}, profiled`,
  startedAt: startedAt.toISOString(),
  seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
  rows: summary.map((s) => {
    const toPrism = s.target === "postgres" || s.target.startsWith("pglite") ? prismRatio(s.case, s.target) : null;
    return {
      case: titles[s.case] ?? s.case,
      target: s.target,
      rps: s.medianRps,
      p50: s.medianP50,
      p99: s.medianP99,
      errors: s.non2xxAndErrors,
      ratio: s.medianRatio,
      ratioToPrism: toPrism,
      ratioToNode: s.target === "node" ? null : toAnchor(s.case, s.target, "node"),
      ratioToFastify: s.target === "fastify" ? null : toAnchor(s.case, s.target, "fastify"),
      cpuToFastify: s.target === "fastify" ? null : toAnchor(s.case, s.target, "fastify", "cpu"),
      cpu: s.cpu,
      ...(s.target !== "baseline" &&
        s.target !== "prism" &&
        s.cpu && { cpuRatio: { server: cpuOver(s, "server"), database: cpuOver(s, "database") } }),
      ...GOALS[`${s.case}/${s.target}`]?.(s, toPrism),
    };
  }),
  notes: [...notes, ...opts.cases.filter((c) => c.note).map((c) => `${titles[c.name] ?? c.name}: ${c.note}`)],
  problems,
  ...(profiles.length && {
    profiles: profiles.map((p) => ({
      target: p.target,
      ms: Math.round(p.ms),
      groups: p.groups.slice(0, 10).map((g) => ({ name: g.name, pct: g.pct })),
      functions: p.functions.slice(0, 12).map((f) => ({ name: f.name, group: f.group, pct: f.pct })),
    })),
  }),
});

mkdirSync(outDir, { recursive: true });
const report = {
  startedAt: startedAt.toISOString(),
  node: process.version,
  cores: cpus().length,
  loadavg: loadavg(),
  options: { ...opts, cases: opts.cases.map((c) => c.name), databaseUrl: undefined },
  cases: opts.cases.map((c) => ({ name: c.name, title: c.title, note: c.note, checks: checks[c.name] })),
  rows,
  summary,
  problems,
  notes,
  profiles,
};
const json = JSON.stringify(report, null, 2);
const file = path.join(outDir, `bench-${stamp}.json`);
writeFileSync(file, json);
writeFileSync(path.join(outDir, "bench-latest.json"), json);
say(
  `\nwritten: ${path.relative(ROOT, file)} (and .tmp/bench-latest.json); took ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s`,
);
