// `npm run bench -- start`: from `node <the start script's flags> dist/server/main.js` (what `npm start` runs after its build) to the first
// 200 from /readyz, on a database that exists already (PGlite directory, PostgreSQL database), and the
// process's resident memory then; and from `npm start` itself when nothing changed since the last build. The anchor of the same run: a bare node http server's start to its first answer.
//   env: BENCH_STARTS (5) starts per target, the median counts; DATABASE_URL as for the other suites.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createScratchDatabase } from "../../tools/postgres.ts";
import { freePort, startChild } from "../../tools/processes.ts";
import { median } from "../report.ts";
import { goal, writeResults, type ResultRow } from "../results.ts";
import { buildServer, ROOT, SERVER_NODE_FLAGS } from "../targets.ts";

const STARTS = Number(process.env.BENCH_STARTS || 5);
const databaseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const startedAt = new Date();
const rows: ResultRow[] = [];
const problems: string[] = [];
const notes: string[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), "logistics-bench-start-"));

interface Start {
  readyMs: number;
  rssMb: number;
  phases: Record<string, number>;
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

/** One start: spawn to the first 200 of `readyPath`, polled every 5 ms. */
async function startOnce(args: string[], env: NodeJS.ProcessEnv, readyPath: string): Promise<Start> {
  const port = await freePort();
  const t0 = performance.now();
  const child = startChild("server", args, { cwd: ROOT, env: { ...env, PORT: String(port) }, stdout: "pipe" });
  try {
    const until = t0 + 60_000;
    for (;;) {
      if (child.process.exitCode !== null) throw new Error(`exited before ready:\n${child.tail()}`);
      if (performance.now() > until) throw new Error(`not ready in 60 s:\n${child.tail()}`);
      if (
        await fetch(`http://127.0.0.1:${port}${readyPath}`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const readyMs = performance.now() - t0;
    const rss = rssMb(child.process.pid!);
    const phases =
      (
        JSON.parse(/\{[^\n]*"startup":\{[^\n]*\n/.exec(child.tail())?.[0] ?? "{}") as {
          startup?: Record<string, number>;
        }
      ).startup ?? {};
    return { readyMs, rssMb: rss, phases };
  } finally {
    const how = await child.stop();
    if (!/exit code 0|signal SIGTERM/.test(how)) problems.push(`a start ended with ${how}`);
  }
}

async function series(label: string, args: string[], env: NodeJS.ProcessEnv, readyPath = "/readyz"): Promise<Start[]> {
  const starts: Start[] = [];
  for (let i = 0; i < STARTS; i++) starts.push(await startOnce(args, env, readyPath));
  console.log(
    `${label.padEnd(40)} ready ${starts.map((s) => s.readyMs.toFixed(0)).join(", ")} ms; RSS ${starts.map((s) => s.rssMb.toFixed(0)).join(", ")} MB`,
  );
  return starts;
}

/** npm's own script, to run `npm start` as an operator does: the one running this benchmark, else the PATH's. */
const npmCli = () =>
  process.env.npm_execpath || realpathSync(execFileSync("which", ["npm"], { encoding: "utf8" }).trim());

const serverEnv = (db: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: "",
  PGLITE_DIR: "",
  LOG_LEVEL: "info",
  SEED_DEMO: "true",
  ...db,
});

try {
  const main = buildServer();
  const bare = await series(
    "bare node http server",
    ["-e", "require('node:http').createServer((q, s) => s.end('ok')).listen(process.env.PORT, '127.0.0.1')"],
    process.env,
    "/",
  );
  const bareMs = median(bare.map((s) => s.readyMs));
  rows.push({
    case: "start to ready, bare node http server",
    target: "baseline",
    value: bareMs,
    unit: "ms",
    errors: 0,
    note: `RSS ${median(bare.map((s) => s.rssMb)).toFixed(0)} MB`,
  });

  const targets: [string, Record<string, string>][] = [["pglite", { PGLITE_DIR: path.join(scratch, "pglite") }]];
  const pg = await createScratchDatabase(databaseUrl);
  if ("unreachable" in pg) notes.push(`postgres skipped: ${pg.unreachable}`);
  else targets.push(["postgres", { DATABASE_URL: pg.url }]);
  try {
    for (const [target, db] of targets) {
      await startOnce([...SERVER_NODE_FLAGS, main], serverEnv(db), "/readyz"); // creates, migrates and seeds: not measured
      const starts = await series(`${target}, existing database`, [...SERVER_NODE_FLAGS, main], serverEnv(db));
      const readyMs = median(starts.map((s) => s.readyMs));
      const rss = median(starts.map((s) => s.rssMb));
      const phases = Object.entries(starts[0]!.phases)
        .map(([k, v]) => `${k.replace(/_ms$/, "")} ${v}`)
        .join(", ");
      rows.push({
        case: `start to ready, existing ${target === "pglite" ? "PGlite directory" : "PostgreSQL database"}`,
        target,
        value: readyMs,
        unit: "ms",
        ratio: bareMs / readyMs,
        errors: 0,
        note: `phases of the first start (ms): ${phases}`,
        ...(target === "pglite" && goal(["<=", 500, " ms", readyMs])),
      });
      if (target === "pglite") {
        // `npm start` itself: npm, the build's check that nothing changed and the server, in one process (tools/start.mjs).
        const npmStarts = await series("npm start, existing PGlite directory", [npmCli(), "start"], serverEnv(db));
        const npmMs = median(npmStarts.map((s) => s.readyMs));
        rows.push({
          case: "npm start to ready, existing PGlite directory, nothing changed since the last build",
          target,
          value: npmMs,
          unit: "ms",
          ratio: bareMs / npmMs,
          errors: 0,
          ...goal(["<=", 700, " ms", npmMs]),
        });
      }
      rows.push({
        case: `RSS when ready, ${target}`,
        target,
        value: rss,
        unit: "MB",
        errors: 0,
        ...(target === "pglite" && goal(["<=", 250, " MB", rss])),
      });
    }
  } finally {
    if (!("unreachable" in pg)) await pg.drop();
  }
} catch (err) {
  problems.push(`the run failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
for (const p of problems) console.error(p);
writeResults({
  suite: "start",
  title: "Start to ready and memory",
  startedAt: startedAt.toISOString(),
  seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
  rows,
  notes: [`median of ${STARTS} starts each; the ratio is the bare server's time over ours`, ...notes],
  problems,
});
