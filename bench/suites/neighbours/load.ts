// A load of its own (autocannon sends neither chunked bodies, nor from chosen local addresses, nor other
// credentials on each request): a closed loop of connections, or an open loop of requests a second. Latencies
// are kept whole (sub-millisecond) for percentiles.
import http from "node:http";
import { pipelinedLoop } from "./pipelined.ts";

export interface Send {
  method: "GET" | "POST" | "OPTIONS";
  /** After the loop's base path, or from the origin's root when `fromRoot`. */
  path: string;
  fromRoot?: boolean;
  headers: Record<string, string>;
  /** Sent with Content-Length. */
  body?: string;
  /** Sent one write at a time without Content-Length: `Transfer-Encoding: chunked`. */
  chunks?: Buffer[];
}

export interface LoopOptions {
  /** Origin and base path: each request's path is relative to it. */
  api: string;
  seconds: number;
  /**
   * Closed loop: this many connections, each sending its next request when the last is answered. Otherwise
   * open loop: `perSecond` requests a second whatever the answers, so that a stalled server shows in every
   * request's latency instead of in fewer requests.
   */
  connections?: number;
  perSecond?: number;
  /** Closed loop only: each connection writes this many requests at once before reading their answers. */
  pipeline?: number;
  /** The next request of connection `conn` (its `n`th; conn 0 in an open loop); undefined: it is done. */
  next: (conn: number, n: number) => Send | undefined;
  /** The local address connection `conn` binds to (default: the kernel's choice). */
  localAddress?: (conn: number) => string;
  /** Starts at this monotonic time (ms, performance.now()), so that two loops share one window. */
  startAt?: number;
}

export interface LoopResult {
  /** Milliseconds, of the requests answered and of those cut off (the time they had waited). */
  latencies: number[];
  statuses: Record<string, number>;
  /** Requests without an answer when the time (and a grace) was up. */
  cutOff: number;
  /** Connection errors: refused, reset. */
  errors: number;
  /** Bytes of the bodies of the requests answered, and of their answers. */
  sentBytes: number;
  receivedBytes: number;
  seconds: number;
}

// How long the answers to requests sent before the end may take to come in; then they are cut off.
const GRACE_MS = 5_000;

type Answer = { status: number; bytes: number } | "cut off" | Error;

export async function loop(o: LoopOptions): Promise<LoopResult> {
  const r: LoopResult = {
    latencies: [],
    statuses: {},
    cutOff: 0,
    errors: 0,
    sentBytes: 0,
    receivedBytes: 0,
    seconds: 0,
  };
  const { hostname, port, pathname } = new URL(o.api);
  const base = pathname.replace(/\/$/, "");
  if (o.startAt !== undefined) await sleep(o.startAt - performance.now());
  const start = performance.now();
  const end = start + o.seconds * 1000;
  const agents: http.Agent[] = [];
  const agentFor = (localAddress: string | undefined, maxSockets = 1) => {
    const a = new http.Agent({ keepAlive: true, maxSockets, ...(localAddress && { localAddress }) });
    agents.push(a);
    return a;
  };
  const send = async (agent: http.Agent, s: Send, localAddress: string | undefined): Promise<Answer> => {
    const t0 = performance.now();
    const p = s.fromRoot ? s.path : base + s.path;
    const answer = await once(agent, hostname, Number(port), p, s, end + GRACE_MS - t0, localAddress);
    if (answer instanceof Error) r.errors++;
    else r.latencies.push(performance.now() - t0);
    if (answer === "cut off") r.cutOff++;
    else if (!(answer instanceof Error)) {
      r.statuses[answer.status] = (r.statuses[answer.status] ?? 0) + 1;
      r.sentBytes +=
        (s.body !== undefined ? Buffer.byteLength(s.body) : undefined) ??
        s.chunks?.reduce((n, c) => n + c.length, 0) ??
        0;
      r.receivedBytes += answer.bytes;
    }
    return answer;
  };
  if (o.perSecond) {
    const agent = agentFor(o.localAddress?.(0), Infinity);
    const pending: Promise<Answer>[] = [];
    for (let n = 0; start + (n * 1000) / o.perSecond < end; n++) {
      await sleep(start + (n * 1000) / o.perSecond - performance.now());
      const s = o.next(0, n);
      if (!s) break;
      pending.push(send(agent, s, o.localAddress?.(0)));
    }
    await Promise.all(pending);
  } else if (o.pipeline) {
    const { connections = 1, pipeline: depth, next, localAddress } = o;
    await pipelinedLoop({ host: hostname, port: Number(port), base, connections, depth, end, next, localAddress }, r);
  } else {
    const connection = async (conn: number) => {
      const localAddress = o.localAddress?.(conn);
      const agent = agentFor(localAddress);
      for (let n = 0; performance.now() < end; n++) {
        const s = o.next(conn, n);
        if (!s) break;
        // A refused or reset connection: do not spin on it.
        if ((await send(agent, s, localAddress)) instanceof Error) await sleep(50);
      }
    };
    await Promise.all(Array.from({ length: o.connections ?? 1 }, (_, i) => connection(i)));
  }
  for (const a of agents) a.destroy();
  r.seconds = (performance.now() - start) / 1000;
  return r;
}

/** The status and body size of one answer (read to the end); "cut off" when none came within `timeoutMs`. */
function once(
  agent: http.Agent,
  host: string,
  port: number,
  path: string,
  s: Send,
  timeoutMs: number,
  localAddress: string | undefined,
): Promise<Answer> {
  return new Promise((resolve) => {
    const headers = {
      ...s.headers,
      ...(s.body !== undefined && { "content-length": String(Buffer.byteLength(s.body)) }),
    };
    const req = http.request({ host, port, agent, method: s.method, path, headers, localAddress }, (res) => {
      let bytes = 0;
      res.on("data", (d: Buffer) => (bytes += d.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on("error", (err) => resolve(err));
    });
    const timer = setTimeout(
      () => {
        resolve("cut off");
        req.destroy();
      },
      Math.max(1, timeoutMs),
    );
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
