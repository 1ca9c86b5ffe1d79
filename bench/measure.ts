// One load run with autocannon against one target, reduced to the figures the report needs.
import autocannon from "autocannon";
import { cpuPerRequest, sampleCpu, type CpuPerRequest } from "./cpu.ts";

export interface BenchRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** From the origin, with BASE_PATH for API operations (Prism gets it without). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Paths (from the origin) taken in turn, one request each, across all connections: reads spread over many
   * resources. Each request is then built as it is sent (autocannon's setupRequest), which costs the load generator a
   * little: an anchor measured beside such a case gets its one path the same way.
   */
  spread?: string[];
}

export interface Figures {
  /** Mean of autocannon's per-second samples. */
  rps: number;
  /** Latency in milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  /** Responses per status code. */
  statuses: Record<string, number>;
  /** Monotonic clock (µs, the clock of `--cpu-prof`) at start and end: which profile samples belong to this run. */
  window: [number, number];
  /** CPU per request by process, when the server's pid was given. */
  cpu?: CpuPerRequest;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** The measured server's process, for its CPU time per request. */
  pid?: number;
  /**
   * Requests a second offered over all connections (autocannon's overallRate): the load does not wait for the
   * answers' pace, so latency is measured at a fixed load instead of being throughput's mirror image.
   */
  rate?: number;
}

/** Latency at a fixed offered load, as the targets measure it: 1,000 req/s over 10 connections. */
export const OFFERED = { rate: 1000, connections: 10 };

const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

/** A setupRequest that gives each request the next of `paths`. */
function inTurn(paths: string[]) {
  let next = 0;
  return (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length]! });
}

export async function measure(origin: string, req: BenchRequest, opts: LoadOptions): Promise<Figures> {
  const start = nowMicros();
  const cpuBefore = sampleCpu(opts.pid);
  const r = await autocannon({
    url: origin + req.path,
    method: req.method,
    headers: req.headers,
    ...(req.body !== undefined && { body: req.body }),
    connections: opts.connections,
    duration: opts.seconds,
    ...(opts.rate !== undefined && { overallRate: opts.rate }),
    ...(req.spread && { requests: [{ setupRequest: inTurn(req.spread) }] }),
  });
  const end = nowMicros();
  const cpu = opts.pid ? cpuPerRequest(cpuBefore, sampleCpu(opts.pid), r.requests.total) : undefined;
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    statuses,
    window: [start, end],
    ...(cpu && { cpu }),
  };
}
