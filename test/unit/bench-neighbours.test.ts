// The neighbours bench's own load: that it sends what its floods claim (chunked bodies without Content-Length,
// requests from chosen local addresses, each connection's requests until it has none left), against a bare
// node server that records what arrived; and that docs/benchmarks.md describes every flood.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publish } from "../../bench/publish.ts";
import { FLOOD_NAMES, FLOODS } from "../../bench/suites/neighbours/floods.ts";
import { loop, percentile } from "../../bench/suites/neighbours/load.ts";

interface Arrival {
  url: string;
  from: string;
  headers: http.IncomingHttpHeaders;
  bytes: number;
}

let server: http.Server;
let api: string;
const arrivals: Arrival[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let bytes = 0;
    req.on("data", (d: Buffer) => (bytes += d.length));
    req.on("end", () => {
      arrivals.push({ url: req.url ?? "", from: req.socket.remoteAddress ?? "", headers: req.headers, bytes });
      res.statusCode = req.url?.endsWith("/conflict") ? 409 : 200;
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("the neighbours bench's load", () => {
  it("sends a chunked body without Content-Length, whole, under the base path", async () => {
    arrivals.length = 0;
    const chunks = [Buffer.alloc(70_000, "a"), Buffer.alloc(70_000, "b"), Buffer.alloc(10, "c")];
    const r = await loop({
      api,
      connections: 1,
      seconds: 5,
      next: (_c, n) => (n < 2 ? { method: "POST", path: "/upload", headers: {}, chunks } : undefined),
    });
    expect(r.statuses).toEqual({ 200: 2 });
    expect(r.sentBytes).toBe(2 * 140_010);
    expect(r.receivedBytes).toBe(4);
    expect(arrivals.map((a) => [a.url, a.headers["transfer-encoding"], a.headers["content-length"], a.bytes])).toEqual([
      ["/base/upload", "chunked", undefined, 140_010],
      ["/base/upload", "chunked", undefined, 140_010],
    ]);
  });

  it("sends a string body with its Content-Length", async () => {
    arrivals.length = 0;
    const r = await loop({
      api,
      connections: 1,
      seconds: 5,
      next: (_c, n) => (n < 1 ? { method: "POST", path: "/conflict", headers: {}, body: "é".repeat(10) } : undefined),
    });
    expect(r.statuses).toEqual({ 409: 1 });
    expect(arrivals.map((a) => [a.headers["content-length"], a.headers["transfer-encoding"], a.bytes])).toEqual([
      ["20", undefined, 20],
    ]);
  });

  it("binds each connection to its local address and stops a connection when it has nothing left", async () => {
    arrivals.length = 0;
    const r = await loop({
      api,
      connections: 3,
      seconds: 5,
      localAddress: (conn) => `127.0.0.${conn + 2}`,
      next: (conn, n) => (n < conn + 1 ? { method: "GET", path: `/c${conn}`, headers: {} } : undefined),
    });
    expect(r.latencies).toHaveLength(6);
    expect(r.errors).toBe(0);
    const by = (from: string) => arrivals.filter((a) => a.from === from).map((a) => a.url);
    expect([by("127.0.0.2"), by("127.0.0.3"), by("127.0.0.4")]).toEqual([
      ["/base/c0"],
      ["/base/c1", "/base/c1"],
      ["/base/c2", "/base/c2", "/base/c2"],
    ]);
  });

  it("counts a refused connection as an error, not an answer", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await loop({
      api: `http://127.0.0.1:${port}`,
      connections: 1,
      seconds: 5,
      next: (_c, n) => (n < 2 ? { method: "GET", path: "/", headers: {} } : undefined),
    });
    expect([r.latencies.length, r.errors]).toEqual([0, 2]);
  });

  it("in an open loop sends its requests a second whatever the answers", async () => {
    arrivals.length = 0;
    const r = await loop({
      api,
      perSecond: 20,
      seconds: 0.5,
      next: () => ({ method: "GET", path: "/p", headers: {} }),
    });
    expect([r.latencies.length, r.statuses, arrivals.length]).toEqual([10, { 200: 10 }, 10]);
  });

  it("cuts off a request left unanswered 5 s after the end, counting the time it waited", async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const r = await loop({
        api: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        connections: 1,
        seconds: 0.1,
        next: () => ({ method: "GET", path: "/", headers: {} }),
      });
      expect([r.cutOff, r.errors, r.statuses]).toEqual([1, 0, {}]);
      expect(r.latencies[0]).toBeGreaterThan(5_000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it("takes percentiles by nearest rank", () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect([percentile(xs, 50), percentile(xs, 99), percentile(xs, 100), percentile([7], 50)]).toEqual([
      50, 99, 100, 7,
    ]);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("docs/benchmarks.md on the neighbours bench", () => {
  it("names every flood with what it sends and what is measured meanwhile", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-publish-"));
    try {
      const { md } = publish(
        dir,
        [],
        [],
        [],
        { cpu: "x", cores: 2, memoryGb: 1, kernel: "k", node: "v20", postgres: "15", loadAtEnd: [0, 0, 0] },
        new Date("2026-11-25T00:00:00Z"),
      );
      const section = md.slice(md.indexOf("## Noisy neighbours"));
      expect(section).toContain("**p50 under flood <= 2x quiet** (and all answered 2xx)");
      for (const name of FLOOD_NAMES) expect(section).toContain(`| ${name} | ${FLOODS[name].what} |`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
