// A closed-loop HTTP load of its own (autocannon sends neither chunked bodies, nor from chosen local
// addresses, nor different credentials on each request): each connection sends its next request when the
// last one is answered, until the time is up. Latencies are kept whole (sub-millisecond), for percentiles.
import http from "node:http";

export interface Send {
  method: "GET" | "POST";
  /** After the loop's base path. */
  path: string;
  headers: Record<string, string>;
  /** Sent with Content-Length. */
  body?: string;
  /** Sent one write at a time without Content-Length: `Transfer-Encoding: chunked`. */
  chunks?: Buffer[];
}

export interface LoopOptions {
  /** Origin and base path: each request's path is relative to it. */
  api: string;
  connections: number;
  seconds: number;
  /** The next request of connection `conn` (its `n`th); undefined: that connection is done. */
  next: (conn: number, n: number) => Send | undefined;
  /** The local address connection `conn` binds to (default: the kernel's choice). */
  localAddress?: (conn: number) => string;
  /** Starts at this monotonic time (ms, performance.now()), so that two loops share one window. */
  startAt?: number;
}

export interface LoopResult {
  /** Milliseconds, of the requests answered. */
  latencies: number[];
  statuses: Record<string, number>;
  /** Connection errors and requests cut off when the time was up. */
  errors: number;
  /** Bytes of the bodies of the requests answered, and of their answers. */
  sentBytes: number;
  receivedBytes: number;
  seconds: number;
}

// How long the answers to requests sent before the end may take to come in; then they are cut off.
const GRACE_MS = 5_000;

export async function loop(o: LoopOptions): Promise<LoopResult> {
  const result: LoopResult = { latencies: [], statuses: {}, errors: 0, sentBytes: 0, receivedBytes: 0, seconds: 0 };
  const { hostname, port, pathname } = new URL(o.api);
  const base = pathname.replace(/\/$/, "");
  if (o.startAt !== undefined) await sleep(o.startAt - performance.now());
  const start = performance.now();
  const end = start + o.seconds * 1000;
  const agents: http.Agent[] = [];
  const connection = async (conn: number) => {
    const localAddress = o.localAddress?.(conn);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1, ...(localAddress && { localAddress }) });
    agents.push(agent);
    for (let n = 0; performance.now() < end; n++) {
      const send = o.next(conn, n);
      if (!send) break;
      const t0 = performance.now();
      const answer = await once(agent, hostname, Number(port), base, send, end + GRACE_MS - t0, localAddress);
      if (!(answer instanceof Error)) {
        const { status, bytes } = answer;
        result.latencies.push(performance.now() - t0);
        result.statuses[status] = (result.statuses[status] ?? 0) + 1;
        result.sentBytes += send.body?.length ?? send.chunks?.reduce((s, c) => s + c.length, 0) ?? 0;
        result.receivedBytes += bytes;
      } else {
        result.errors++;
        // A refused or reset connection: do not spin on it.
        await sleep(50);
      }
    }
  };
  await Promise.all(Array.from({ length: o.connections }, (_, i) => connection(i)));
  for (const a of agents) a.destroy();
  result.seconds = (performance.now() - start) / 1000;
  return result;
}

/** The status and body size of one answer (read to the end), or an error when none came within `timeoutMs`. */
function once(
  agent: http.Agent,
  host: string,
  port: number,
  base: string,
  s: Send,
  timeoutMs: number,
  localAddress: string | undefined,
): Promise<{ status: number; bytes: number } | Error> {
  return new Promise((resolve) => {
    const headers = {
      ...s.headers,
      ...(s.body !== undefined && { "content-length": String(Buffer.byteLength(s.body)) }),
    };
    const req = http.request(
      { host, port, agent, method: s.method, path: base + s.path, headers, localAddress },
      (res) => {
        let bytes = 0;
        res.on("data", (d: Buffer) => (bytes += d.length));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on("error", (err) => resolve(err));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error("cut off at the end of the run")), Math.max(1, timeoutMs));
    req.on("error", (err) => resolve(err));
    req.on("close", () => clearTimeout(timer));
    if (s.chunks) void writeChunks(req, s.chunks);
    else req.end(s.body);
  });
}

/** Each chunk waits for the socket to take the last one, as a client streaming a large upload does. */
async function writeChunks(req: http.ClientRequest, chunks: Buffer[]): Promise<void> {
  for (const c of chunks) {
    if (req.destroyed) return;
    if (!req.write(c)) await drainedOrClosed(req);
  }
  req.end();
}

function drainedOrClosed(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off("drain", done);
      req.off("close", done);
      resolve();
    };
    req.on("drain", done);
    req.on("close", done);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** The p-th percentile (0-100) of `xs`, nearest rank. */
export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
