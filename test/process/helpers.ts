// Runs the real entry points (the server's and the CLI's bundles) as child processes.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { createLogisticsClient, type LogisticsClient } from "../../client/index.ts";
import { freePort } from "../../tools/processes.ts";
export { freePort };

export interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

export interface RunOptions {
  /** Started from a shell with this umask (e.g. 0o000: every file the process makes would be everyone's). */
  umask?: number;
}

/** Runs `script` with node: a .ts source through tsx, a compiled .js (a server bundle) as it is. */
export function run(script: string, args: string[], env: Record<string, string>, opts: RunOptions = {}): Proc {
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const command = [process.execPath, ...loader, script, ...args];
  const [file, ...argv] =
    opts.umask === undefined
      ? command
      : ["/bin/sh", "-c", `umask ${opts.umask.toString(8).padStart(4, "0")} && exec "$0" "$@"`, ...command];
  const child = spawn(file!, argv, {
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The server as `npm start` runs it (a bundle of this checkout built by the test set-up), for `run`. */
export const SERVER_MAIN = inject("serverMain");

/**
 * The operator CLI, bundled beside the server by the test set-up: the same code as `npm run cli` (whose commands
 * test/readme runs as the docs write them), without tsx compiling it at each call (~1.5 s of CPU apiece).
 */
export async function cli(
  args: string[],
  env: Record<string, string>,
  opts: RunOptions = {},
): Promise<{ code: number | null; output: string }> {
  const p = run(path.join(path.dirname(SERVER_MAIN), "cli.js"), args, env, opts);
  const code = await p.exited;
  return { code, output: p.output() };
}

export async function waitReady(origin: string, proc: Proc, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`server exited early:\n${proc.output()}`);
    if (
      await fetch(`${origin}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready in time:\n${proc.output()}`);
}

export interface ServerProcess {
  proc: Proc;
  origin: string;
  /** A client of the generated contract on this process, signed in as `username`. */
  client(username: string, secret: string): LogisticsClient;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** The server (this checkout's, or another release's `main`) on `port` (default a free one), once it answers /readyz. */
export async function startServerProcess(
  env: Record<string, string>,
  port?: number,
  main: string = SERVER_MAIN,
  opts: RunOptions & { readyTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  port ??= await freePort();
  const proc = run(main, [], { SEED_DEMO: "false", LOG_LEVEL: "warn", ...env, PORT: String(port) }, opts);
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(origin, proc, opts.readyTimeoutMs);
  return {
    proc,
    origin,
    client: (username, secret) => createLogisticsClient({ baseUrl: `${origin}/2015-01-01`, username, secret }),
    stop: async () => {
      if (proc.child.exitCode === null) proc.child.kill("SIGTERM");
      return proc.exited;
    },
  };
}
