// A pipelining connection's requests take turns (server/http/connection-turns.ts): at most a few run at once, the
// rest wait and are answered in order; a connection that queues past the limit is closed.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { connectionTurns } from "../../server/http/connection-turns.ts";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A server whose every answer takes 30 ms, counting how many requests of each connection run at once. */
async function slowServer(turns: { running: number; waiting: number }) {
  let running = 0;
  let most = 0;
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    most = Math.max(most, ++running);
    setTimeout(() => {
      running--;
      res.end(req.url);
    }, 30);
  };
  server = http.createServer(connectionTurns(handle, turns));
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return { port: (server.address() as AddressInfo).port, most: () => most };
}

/** Pipelines GET /0 .. /n-1 on one connection; the answers' bodies in the order they came, and whether it closed. */
function pipeline(port: number, n: number): Promise<{ bodies: string[]; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    const bodies = () => [...text.matchAll(/\r\n\r\n(\/\d+)/g)].map((x) => x[1]!);
    socket.on("data", (d) => {
      text += d.toString("latin1");
      if (bodies().length === n) {
        socket.destroy();
        resolve({ bodies: bodies(), closed: false });
      }
    });
    socket.on("close", () => resolve({ bodies: bodies(), closed: true }));
    socket.on("error", () => {});
    socket.write(Array.from({ length: n }, (_, i) => `GET /${i} HTTP/1.1\r\nHost: x\r\n\r\n`).join(""));
  });
}

describe("When a client pipelines requests on one connection", () => {
  it("at most `running` of them run at once, and every one is answered, in order", async () => {
    const s = await slowServer({ running: 4, waiting: 64 });
    const got = await pipeline(s.port, 32);
    expect(got.bodies).toEqual(Array.from({ length: 32 }, (_, i) => `/${i}`));
    expect(s.most()).toBe(4);
  });

  it("a connection that queues more than `waiting` is closed, its queued requests dropped", async () => {
    const s = await slowServer({ running: 2, waiting: 8 });
    const got = await pipeline(s.port, 40);
    expect(got.closed).toBe(true);
    expect(got.bodies.length).toBeLessThan(40);
    expect(s.most()).toBeLessThanOrEqual(2);
  });

  it("separate connections are not held by each other", async () => {
    const s = await slowServer({ running: 1, waiting: 64 });
    const [a, b] = await Promise.all([pipeline(s.port, 4), pipeline(s.port, 4)]);
    expect(a.bodies).toHaveLength(4);
    expect(b.bodies).toHaveLength(4);
    expect(s.most()).toBe(2);
  });
});
