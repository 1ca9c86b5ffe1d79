// What is measured side by side: the real server on PostgreSQL and on PGlite (started as `npm start` starts it),
// and the anchors (bench/anchors/): the same bytes from bare Express and from node's own http, a Fastify + pg route
// doing the same read, and Prism's mock. Each runs in its own process.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BASE_PATH } from "../server/app.ts";
import type { CapturedResponse } from "./anchors/express-bytes.ts";
import type { ServerTarget, TargetName } from "./cases.ts";
import { freePort, startChild, waitForHttp, type Child } from "../tools/processes.ts";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Target<N extends string = TargetName> {
  name: N;
  origin: string;
  /** Where a request path goes on this target (Prism serves the API without the base path). */
  pathFor(p: string): string;
  child: Child;
}

// The server's configuration variables: unset, so the server runs on its defaults whatever the caller's shell
// exports. BENCH_SERVER_<VAR>=value sets one on purpose, over the benchmark's own (e.g. BENCH_SERVER_LOG_LEVEL=warn).
const CONFIG_VARS = [
  "PORT",
  "HOST",
  "DATABASE_URL",
  "PGLITE_DIR",
  "PGLITE_DURABILITY",
  "LOG_LEVEL",
  "SEED_DEMO",
  "RATE_LIMIT_PER_MINUTE",
  "CONCURRENT_REQUESTS_PER_CALLER",
  "HEAVY_REQUESTS_PER_CALLER",
  "BODY_BYTES_PER_MINUTE",
  "RESPONSE_BYTES_PER_MINUTE",
  "RESPONSE_VALIDATION_PERCENT",
  "NODE_ENV",
];

/** 32 bytes, base64: not secret (the bench's databases are scratch ones). */
export const BENCH_MAIN_KEY = Buffer.alloc(32, 7).toString("base64");

function serverEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings };
  for (const name of CONFIG_VARS) if (!(name in settings)) delete env[name];
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith("BENCH_SERVER_") && value !== undefined) env[name.slice("BENCH_SERVER_".length)] = value;
  }
  return env;
}

export interface ServerOptions {
  /** DATABASE_URL for postgres, PGLITE_DIR for pglite. */
  database: { DATABASE_URL: string } | { PGLITE_DIR: string };
  stdout: "pipe" | "ignore";
  /** Adds `--cpu-prof` with this directory. */
  profileDir?: string;
  /** Keeps the server's default RATE_LIMIT_PER_MINUTE (other suites turn it off to measure throughput). */
  defaultRateLimit?: boolean;
  /** Another build's dist/server/main.js instead of this tree's (an A/B of two commits in the same rounds). */
  entry?: string;
  /** Node's flags for this server instead of those of `npm start` (SERVER_NODE_FLAGS): an A/B of a flag. */
  nodeFlags?: string[];
  /** More settings for this server (e.g. WEB_CONCURRENCY). */
  env?: Record<string, string>;
}

/** Node's flags in package.json's start script: the servers measured run as `npm start` runs them. */
export const SERVER_NODE_FLAGS = ((): string[] => {
  const start = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } })
    .scripts.start;
  // tools/start.mjs runs dist/server/main.js in its own process, with these flags.
  const flags = /\bnode ((?:--\S+ )*)tools\/start\.mjs$/.exec(start)?.[1];
  if (flags === undefined) throw new Error(`package.json's start script does not run tools/start.mjs: ${start}`);
  return flags.split(" ").filter(Boolean);
})();

let built = false;
/** `npm run build` once per process: the servers measured are what `npm start` runs. */
export function buildServer(): string {
  if (!built) {
    execFileSync(process.execPath, [path.join(ROOT, "tools/build.mjs")], { stdio: "inherit" });
    built = true;
  }
  return path.join(ROOT, "dist/server/main.js");
}

export async function startServer<N extends ServerTarget | "before">(name: N, opts: ServerOptions): Promise<Target<N>> {
  const port = await freePort();
  // Profiled servers run the sources (through tsx) so that the profile names files and packages; the bundle
  // would show one file.
  const flags = opts.nodeFlags ?? SERVER_NODE_FLAGS;
  const entry = opts.profileDir
    ? [...flags, "--cpu-prof", `--cpu-prof-dir=${opts.profileDir}`, "--import", "tsx", "server/main.ts"]
    : [...flags, opts.entry ?? buildServer()];
  const child = startChild(name, entry, {
    env: serverEnv({
      PORT: String(port),
      // As an operator runs it (docs/operating.md): answers checked against the spec by a 1% sample.
      NODE_ENV: "production",
      // Production on PostgreSQL needs the main key of the secrets at rest (docs/secrets.md); the bench's is fixed.
      SECRETS_MAIN_KEY: BENCH_MAIN_KEY,
      ...(!opts.defaultRateLimit && { RATE_LIMIT_PER_MINUTE: "0" }),
      // Counted as in production, never reached: a quiet hour's shipping options (~4,000 answers of 5 KB a second)
      // spend the default 256 MB a minute within a round, and the rest of it would measure 429s.
      RESPONSE_BYTES_PER_MINUTE: String(2 ** 31 - 1),
      // The same for request bodies: creates of 10 lines (~0.7 KB) at 4,000 a second, by the servers of one database
      // together, spend the default 32 MB a minute in 12 s.
      BODY_BYTES_PER_MINUTE: String(2 ** 31 - 1),
      ...opts.database,
      ...opts.env,
    }),
    stdout: opts.stdout,
    cwd: ROOT,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${origin}/readyz`, { okOnly: true, timeoutMs: 120_000 });
  return { name, origin, pathFor: (p) => p, child };
}

export async function startBaseline(responses: CapturedResponse[], scratchDir: string): Promise<Target> {
  return startBytes("baseline", "express-bytes.ts", responses, scratchDir);
}

/** node's own http serving the same bytes: the ceiling. */
export async function startNodeBytes(responses: CapturedResponse[], scratchDir: string): Promise<Target> {
  return startBytes("node", "node-bytes.ts", responses, scratchDir);
}

async function startBytes(
  name: "baseline" | "node",
  file: string,
  responses: CapturedResponse[],
  scratchDir: string,
): Promise<Target> {
  const answers = path.join(scratchDir, `${name}-responses.json`);
  writeFileSync(answers, JSON.stringify(responses));
  const port = await freePort();
  const child = startChild(name, ["--import", "tsx", path.join(ROOT, "bench/anchors", file), answers, String(port)], {
    stdout: "ignore",
    cwd: ROOT,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${origin}/`);
  return { name, origin, pathFor: (p) => p, child };
}

/**
 * The Fastify + pg peer (bench/anchors/fastify-pg.ts) on `databaseUrl`, reading with the server's own statement
 * for GET shipment (`statement`, compiled by bench/micro/get-shipment.ts).
 */
export async function startFastify(
  databaseUrl: string,
  authorization: string,
  statement: { sql: string; parameters: readonly unknown[]; idAt: number },
  scratchDir: string,
): Promise<Target> {
  const file = path.join(scratchDir, "fastify-statement.json");
  writeFileSync(file, JSON.stringify(statement));
  const port = await freePort();
  const child = startChild(
    "fastify",
    ["--import", "tsx", path.join(ROOT, "bench/anchors/fastify-pg.ts"), databaseUrl, String(port), authorization, file],
    { stdout: "ignore", cwd: ROOT },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${origin}/`);
  return { name: "fastify", origin, pathFor: (p) => p, child };
}

export async function startPrism(): Promise<Target> {
  const port = await freePort();
  const bin = path.join(ROOT, "node_modules/.bin/prism");
  const args = [
    bin,
    "mock",
    "-h",
    "127.0.0.1",
    "-p",
    String(port),
    "-v",
    "error",
    path.join(ROOT, "generated/openapi.json"),
  ];
  const child = startChild("prism", args, { stdout: "ignore", cwd: ROOT });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${origin}/__bench_ready`);
  return { name: "prism", origin, pathFor: (p) => (p.startsWith(BASE_PATH) ? p.slice(BASE_PATH.length) : p), child };
}
