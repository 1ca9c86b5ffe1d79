// Child processes of the benchmark: started with a free port, awaited until they answer HTTP, stopped with
// SIGTERM (so a server writes its CPU profile) and killed if the benchmark itself dies.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { createServer } from "node:net";

const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/**
 * A port free to listen on, for a server started next. Picked below Linux's ephemeral range (32768-60999):
 * a port the kernel handed out for a moment can be the local port of any process's next outgoing
 * connection before the server binds it (a test server once failed with EADDRINUSE that way).
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error("no free port found in 20000-31999");
}

export interface Child {
  name: string;
  process: ChildProcess;
  /** Bytes the child wrote to stdout when it is a drained pipe. */
  stdoutBytes(): number;
  /** The last lines of stderr (and of stdout when piped), for error messages. */
  tail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
  stop(graceMs?: number): Promise<string>;
}

const children = new Set<ChildProcess>();
const killChildren = () => {
  for (const child of children) child.kill("SIGKILL");
};
process.once("exit", killChildren);
// A signal's default action ends the process without "exit": the children would outlive it (servers of an interrupted
// benchmark kept running, each holding a port, a database and a core). So they go first, then the signal does what it
// would have done.
for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    killChildren();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

export function startChild(
  name: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; stdout: "pipe" | "ignore" },
): Child {
  const stdio: StdioOptions = ["ignore", opts.stdout, "pipe"];
  const child = spawn(process.execPath, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio });
  children.add(child);
  let bytes = 0;
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    keep(chunk);
  });
  child.stderr!.on("data", keep);
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => {
      children.delete(child);
      resolve(signal ? `signal ${signal}` : `exit code ${code}`);
    });
    child.once("error", (err) => {
      children.delete(child);
      resolve(`could not start: ${err.message}`);
    });
  });
  return {
    name,
    process: child,
    stdoutBytes: () => bytes,
    tail: () => tail,
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const how = await exited;
      clearTimeout(timer);
      return how;
    },
  };
}

/** Resolves when `url` answers with any HTTP status (or `ok` only, when asked); rejects if the child exits. */
export async function waitForHttp(
  child: Child,
  url: string,
  { okOnly = false, timeoutMs = 60_000, headers = {} } = {},
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`${child.name} exited before answering:\n${child.tail()}`);
    }
    const answered = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) }).then(
      (r) => !okOnly || r.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${child.tail()}`);
}
