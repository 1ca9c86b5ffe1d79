// Runs the real entry points (server/main.ts, server/cli.ts) as child processes.
import { spawn, type ChildProcess } from "node:child_process";
export { freePort } from "../../tools/processes.ts";

export interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Runs `script` with node: a .ts source through tsx, a compiled .js (dist/, what `npm start` runs) as it is. */
export function run(script: string, args: string[], env: Record<string, string>): Proc {
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child = spawn(process.execPath, [...loader, script, ...args], {
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export async function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const p = run("server/cli.ts", args, env);
  const code = await p.exited;
  return { code, output: p.output() };
}

export async function waitReady(origin: string, proc: Proc, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`server exited early:\n${proc.output()}`);
    if (await fetch(`${origin}/readyz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready in time:\n${proc.output()}`);
}
