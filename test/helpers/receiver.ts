// A merchant's webhook receiver on loopback: records every request and answers what the test says.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** performance.now() when the body had arrived. */
  at: number;
}

export type Answer = number | { status: number; body?: string; delayMs?: number; headers?: Record<string, string> };

export interface Receiver {
  origin: string;
  url(path?: string): string;
  received: Received[];
  /** Decides each answer (a promise holds it); default 200 "OK" in plain text, as receivers of this kind of service answer. */
  respond: (req: Received) => Answer | Promise<Answer>;
  /** Waits until `n` requests (to `path`, if given) have arrived. */
  waitFor(n: number, opts?: { path?: string; timeoutMs?: number }): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const r: Receiver = {
    origin: "",
    url: (path = "/hook") => `${r.origin}${path}`,
    received: [],
    respond: () => 200,
    waitFor: async (n, opts = {}) => {
      const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
      const matching = () => r.received.filter((x) => opts.path === undefined || x.path === opts.path);
      while (matching().length < n) {
        if (Date.now() > deadline)
          throw new Error(
            `expected ${n} webhook requests${opts.path ? ` to ${opts.path}` : ""}, got ${matching().length}`,
          );
        await new Promise((res) => setTimeout(res, 10));
      }
      return matching();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((res) => server.close(res));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const got: Received = {
        path: (req.url ?? "/").split("?")[0]!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      r.received.push(got);
      void Promise.resolve(r.respond(got)).then((a) => {
        const { status, body = "OK", delayMs = 0, headers = {} } = typeof a === "number" ? { status: a } : a;
        setTimeout(() => res.writeHead(status, { "content-type": "text/plain", ...headers }).end(body), delayMs);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  r.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return r;
}
