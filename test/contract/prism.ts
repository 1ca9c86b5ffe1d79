// Runs Prism as a validating proxy in front of the real server, and checks what comes back through it.
//
// How Prism 5.14 proxy treats requests (measured, see prism-core factory.js / prism-http forwarder):
// - With `--errors`, a request that fails Prism's own request validation is NOT forwarded: a missing or
//   non-Basic `Authorization` header is answered by Prism with 401, any other request violation (unknown
//   body property, out-of-range query parameter, ...) with 422; both `application/problem+json`.
//   The `Prefer` header only steers the mocker (code/example/dynamic); it cannot make Prism forward.
//   `--validate-request=false` skips body/parameter validation but not the security check.
// - Without `--errors`, every request is forwarded; request and response violations are both listed in
//   `sl-violations` (locations prefixed `request` / `response`) and the upstream response passes as is.
// - With `--errors`, a response violation turns the answer into a 500 `application/problem+json` whose
//   `sl-violations` header (and `validation` body field) lists the violations.
// So contract tests run valid requests through a strict (`--errors`) proxy and requests Prism itself
// judges invalid through a lenient one, where `sl-violations` may only name the request.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../tools/processes.ts";
export { freePort };

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SPEC_PATH = path.join(ROOT, "generated/openapi.json");
const PRISM_BIN = path.join(ROOT, "node_modules/.bin/prism");

export interface PrismProxy {
  /** Where to send requests: WITHOUT the /2015-01-01 prefix (Prism ignores the path of `servers`). */
  origin: string;
  /** Whether Prism runs with `--errors`. */
  strict: boolean;
  /** Everything Prism printed so far (stdout and stderr). */
  output(): string;
  /** Kills Prism's whole process group and waits until it is gone. */
  close(): Promise<void>;
}

export interface PrismOptions {
  /** Upstream URL including the base path, e.g. http://127.0.0.1:1234/2015-01-01 */
  upstream: string;
  /** `--errors` (default true). */
  errors?: boolean;
  spec?: string;
  startTimeoutMs?: number;
}

// Runs Prism as its child and kills the whole group when the test process disappears without cleaning
// up (a killed worker runs no afterAll and no exit handler): Prism never outlives the test run.
const WATCHDOG = `
const { spawn } = require("node:child_process");
const [parent, bin, ...args] = process.argv.slice(1);
const prism = spawn(bin, args, { stdio: "inherit" });
prism.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
setInterval(() => {
  if (process.ppid !== Number(parent)) { try { process.kill(-process.pid, "SIGKILL"); } catch {} }
}, 500);
`;

const running = new Set<ChildProcess>();
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function groupGone(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(child)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

// Last resort if the worker exits without afterAll (crash, timeout): never leave Prism behind.
process.once("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

export async function startPrismProxy(opts: PrismOptions): Promise<PrismProxy> {
  const strict = opts.errors ?? true;
  const port = await freePort();
  const args = [
    "proxy",
    opts.spec ?? SPEC_PATH,
    opts.upstream,
    ...(strict ? ["--errors"] : []),
    "-h",
    "127.0.0.1",
    "-p",
    String(port),
    "-v",
    "error",
  ];
  // detached: a new process group (the watchdog and Prism), so the whole group can be killed at once.
  const child = spawn(process.execPath, ["-e", WATCHDOG, String(process.pid), PRISM_BIN, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let log = "";
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > 100_000) log = log.slice(-100_000);
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else {
      child.once("exit", () => resolve());
      child.once("error", () => resolve());
    }
  });
  let exitInfo: string | undefined;
  child.once("exit", (code, signal) => {
    exitInfo = `exited with ${signal ?? code}`;
  });
  child.once("error", (err) => {
    exitInfo = `could not start: ${err.message}`;
  });

  const origin = `http://127.0.0.1:${port}`;
  const close = async () => {
    running.delete(child);
    killGroup(child, "SIGTERM");
    if (!(await groupGone(child, 3_000))) {
      killGroup(child, "SIGKILL");
      await groupGone(child, 2_000);
    }
    await exited;
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? 30_000);
  for (;;) {
    if (exitInfo !== undefined) {
      await close();
      throw new Error(`Prism ${exitInfo} before answering (prism ${args.join(" ")}):\n${log}`);
    }
    try {
      // Any HTTP answer means Prism listens (an unknown path is Prism's 404 or the upstream's).
      await fetch(`${origin}/__prism_ready`, { signal: AbortSignal.timeout(1_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await close();
        throw new Error(
          `Prism did not answer on ${origin} within ${opts.startTimeoutMs ?? 30_000} ms (prism ${args.join(" ")}):\n${log}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { origin, strict, output: () => log, close };
}

// ---------------------------------------------------------------------------------------------------
// The spec's operations.

export interface SpecOperation {
  operationId: string;
  /** Upper case, as in a Request. */
  method: string;
  /** The path template as written in the spec (and as openapi-fetch reports it in `schemaPath`). */
  path: string;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** Operations of the spec whose path starts with `prefix`. */
export function specOperations(prefix = "/", specPath = SPEC_PATH): SpecOperation[] {
  const doc = JSON.parse(readFileSync(specPath, "utf8")) as {
    paths?: Record<string, Record<string, { operationId?: string }>>;
  };
  const out: SpecOperation[] = [];
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    if (!p.startsWith(prefix)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${p} has no operationId`);
      out.push({ operationId: op.operationId, method: method.toUpperCase(), path: p });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Checking a response that came through Prism.

export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export function violationsOf(res: Response): Violation[] | undefined {
  const raw = res.headers.get("sl-violations");
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as Violation[];
  } catch {
    return [{ location: [], severity: "Error", code: "unparsable", message: raw }];
  }
}

export function mediaType(res: Response): string {
  return (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

export interface ContractExpectation {
  status: number;
  /**
   * Only for requests Prism judges invalid, sent through the lenient proxy: `sl-violations` must then
   * list request violations whose codes include these, and nothing about the response.
   */
  requestViolations?: (string | number)[];
  /** The answer's media type when it is not JSON (a receiving label's page: text/html). */
  mediaType?: string;
}

/** Every way the response breaks the expectation; empty when it conforms. */
export function contractProblems(res: Response, expected: ContractExpectation): string[] {
  const problems: string[] = [];
  const violations = violationsOf(res);
  if (res.status !== expected.status) problems.push(`status ${res.status}, expected ${expected.status}`);
  if (mediaType(res) === "application/problem+json") {
    problems.push(
      res.status === 500 && violations
        ? "Prism replaced the server's response by its own 500: the response violates the spec"
        : "Prism answered by itself (application/problem+json), the request was not forwarded",
    );
  }
  const media = expected.mediaType ?? "application/json";
  if (mediaType(res) !== media) problems.push(`content-type ${res.headers.get("content-type")}, expected ${media}`);
  if (expected.requestViolations) {
    const list = violations ?? [];
    const response = list.filter((v) => v.location[0] !== "request");
    if (response.length) problems.push(`response violations: ${JSON.stringify(response)}`);
    const codes = list.filter((v) => v.location[0] === "request").map((v) => v.code);
    for (const code of expected.requestViolations) {
      if (!codes.includes(code))
        problems.push(`expected Prism to flag the request with ${code}; sl-violations: ${JSON.stringify(list)}`);
    }
  } else if (violations) {
    problems.push(`sl-violations: ${JSON.stringify(violations)}`);
  }
  return problems;
}
