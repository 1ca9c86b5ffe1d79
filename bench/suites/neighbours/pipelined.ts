// A closed loop that pipelines (HTTP/1.1: many requests written on one connection before any answer), which
// node's http client never does: each connection writes `depth` requests at once, reads their answers in order,
// and writes the next `depth`. A connection the server closes (past what it queues) is opened again after 50 ms.
import net from "node:net";
import type { LoopResult, Send } from "./load.ts";

export interface PipelineOptions {
  host: string;
  port: number;
  /** Prefixed to each request's path, unless the request is `fromRoot`. */
  base: string;
  connections: number;
  depth: number;
  end: number;
  next: (conn: number, n: number) => Send | undefined;
  localAddress?: (conn: number) => string;
}

export async function pipelinedLoop(o: PipelineOptions, r: LoopResult): Promise<void> {
  await Promise.all(Array.from({ length: o.connections }, (_, conn) => connection(o, conn, r)));
}

async function connection(o: PipelineOptions, conn: number, r: LoopResult): Promise<void> {
  let n = 0;
  while (performance.now() < o.end) {
    const batch: Send[] = [];
    for (let i = 0; i < o.depth; i++) {
      const s = o.next(conn, n++);
      if (s) batch.push(s);
    }
    if (!batch.length) return;
    const ok = await exchange(o, conn, batch, r);
    if (!ok) await new Promise((res) => setTimeout(res, 50));
  }
}

/** One connection's batch: written at once, answers read in order. False when the connection failed. */
function exchange(o: PipelineOptions, conn: number, batch: Send[], r: LoopResult): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: o.host, port: o.port, localAddress: o.localAddress?.(conn) });
    let buffer = Buffer.alloc(0);
    let answered = 0;
    let done = false;
    const t0 = performance.now();
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    // Answers later than 5 s after the phase's end are cut off, as in load.ts.
    const timer = setTimeout(
      () => {
        r.cutOff += batch.length - answered;
        for (let i = answered; i < batch.length; i++) r.latencies.push(performance.now() - t0);
        finish(true);
      },
      Math.max(1, o.end + 5_000 - t0),
    );
    socket.on("connect", () => socket.write(batch.map((s) => request(o, s)).join("")));
    socket.on("data", (d: Buffer) => {
      buffer = Buffer.concat([buffer, d]);
      for (;;) {
        const head = buffer.indexOf("\r\n\r\n");
        if (head < 0) return;
        const lines = buffer.subarray(0, head).toString("latin1").split("\r\n");
        const length = Number(/^content-length:\s*(\d+)/im.exec(lines.join("\n"))?.[1] ?? 0);
        if (buffer.length < head + 4 + length) return;
        const status = lines[0]!.split(" ")[1] ?? "0";
        r.statuses[status] = (r.statuses[status] ?? 0) + 1;
        r.latencies.push(performance.now() - t0);
        r.receivedBytes += length;
        buffer = buffer.subarray(head + 4 + length);
        if (++answered === batch.length) return finish(true);
      }
    });
    // Closed by the server before every answer came: the rest are connection errors.
    const failed = () => {
      if (done) return;
      r.errors += batch.length - answered;
      finish(false);
    };
    socket.on("error", failed);
    socket.on("close", failed);
  });
}

function request(o: PipelineOptions, s: Send): string {
  const headers = { host: `${o.host}:${o.port}`, ...s.headers };
  const body = s.body ?? "";
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  if (s.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return `${s.method} ${s.fromRoot ? s.path : o.base + s.path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${body}`;
}
