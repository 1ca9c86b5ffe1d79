// sendWebhook against a real HTTP receiver on loopback.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateWebhookSecret, verifyWebhook, webhookHeaders } from "../../client/webhooks.ts";
import { closeWebhookAgents, EXCERPT_CHARS, sendWebhook } from "../../server/webhooks/sender.ts";

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
let port: number;
let received: Received[] = [];
let connections = 0;
const served = new WeakSet<object>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      received.push({ url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const path = url.split("?")[0];
      if (path === "/ok") return res.writeHead(200, { "content-type": "text/plain" }).end("OK thanks");
      if (path === "/no-content") return res.writeHead(204).end();
      if (path === "/fail") return res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
      if (path === "/redirect") return res.writeHead(302, { location: "/ok" }).end();
      if (path === "/slow") return; // never answers
      if (path === "/slow-body") return res.writeHead(200, { "content-type": "text/plain" }).write("partial"); // never ends
      if (path === "/huge") {
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = "x".repeat(64 * 1024);
        let left = 200; // 12.5 MiB, far more than is read
        const pump = () => {
          while (left > 0 && res.write(chunk)) left--;
          if (left > 0) res.once("drain", pump);
          else res.end();
        };
        res.on("close", () => (left = 0));
        return pump();
      }
      if (path === "/reset-reused") {
        // Resets a kept-alive connection when it is used again, as a receiver closing an idle one would.
        if (served.has(req.socket)) return req.socket.resetAndDestroy();
        served.add(req.socket);
        return res.writeHead(200).end("ok");
      }
      if (path === "/verify") {
        try {
          verifyWebhook(String(req.headers["x-test-secret"]), req.headers, Buffer.concat(chunks));
          return res.writeHead(200).end();
        } catch (e) {
          return res.writeHead(401).end((e as Error).message);
        }
      }
      res.writeHead(404).end();
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  closeWebhookAgents();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

const body = JSON.stringify({
  event_id: "5a41e2f3a4b5c6d7e8f9a0b1",
  event_type: "webhook.test",
  payload: { message: "hi" },
});
const send = (path: string, extra: Partial<Parameters<typeof sendWebhook>[0]> = {}) =>
  sendWebhook({ url: `${base}${path}`, body, timeoutMs: 2000, allowPrivateNetworks: true, ...extra });

describe("sendWebhook", () => {
  it("posts the JSON body and counts a plain-text 200 as success", async () => {
    const r = await send("/ok", { headers: { "webhook-id": "5a41e2f3a4b5c6d7e8f9a0b1" } });
    expect(r).toMatchObject({ ok: true, status: 200, responseExcerpt: "OK thanks" });
    expect(r.error).toBeUndefined();
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toBe(body);
    expect(received[0]!.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": "5a41e2f3a4b5c6d7e8f9a0b1",
      "content-length": String(Buffer.byteLength(body)),
    });
    expect(received[0]!.headers["user-agent"]).toMatch(/^logistics-api-webhooks/);
  });

  it("counts 204 as success", async () => {
    expect(await send("/no-content")).toMatchObject({ ok: true, status: 204 });
  });

  it("sends the exact signed bytes: the client verifier accepts them", async () => {
    const secret = generateWebhookSecret();
    const r = await send("/verify", {
      headers: { ...webhookHeaders(secret, "5a41e2f3a4b5c6d7e8f9a0b1", body), "x-test-secret": secret },
    });
    expect(r).toMatchObject({ ok: true, status: 200 });
  });

  it("fails on 500 and keeps the status", async () => {
    const r = await send("/fail");
    expect(r).toMatchObject({
      ok: false,
      status: 500,
      error: "HTTP 500 from endpoint",
      responseExcerpt: "Internal Server Error",
    });
  });

  it("does not follow a redirect: a 302 is a failure with its status", async () => {
    const r = await send("/redirect");
    expect(r).toMatchObject({ ok: false, status: 302, error: "HTTP 302 from endpoint (redirects are not followed)" });
    expect(received.map((x) => x.url)).toEqual(["/redirect"]);
  });

  it("gives up on a slow receiver after the timeout", async () => {
    const started = Date.now();
    const r = await send("/slow", { timeoutMs: 300 });
    expect(r).toEqual({
      ok: false,
      durationMs: expect.any(Number),
      error: "timeout after 300 ms",
      failureClass: "timeout",
    });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("counts a 2xx whose body never ends by its status once the time is up", async () => {
    const r = await send("/slow-body", { timeoutMs: 300 });
    expect(r).toMatchObject({ ok: true, status: 200, responseExcerpt: "partial" });
  });

  it("reports a refused connection", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await sendWebhook({
      url: `http://127.0.0.1:${freePort}/x?token=s3cr3t`,
      body,
      timeoutMs: 2000,
      allowPrivateNetworks: true,
    });
    expect(r).toMatchObject({ ok: false, error: "connection refused" });
    expect(r.status).toBeUndefined();
  });

  it("reads only the start of a huge answer and cuts the connection", async () => {
    const started = Date.now();
    const r = await send("/huge");
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(r.responseExcerpt).toBe("x".repeat(EXCERPT_CHARS));
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("sends Basic credentials and never returns them or the URL's query", async () => {
    const r = await send("/fail?token=s3cr3t", { basicAuth: { username: "erp", password: "hunter2" } });
    expect(received[0]!.headers.authorization).toBe(`Basic ${Buffer.from("erp:hunter2").toString("base64")}`);
    const text = JSON.stringify(r);
    for (const secret of ["hunter2", "s3cr3t", "ZXJwOmh1bnRlcjI", "127.0.0.1"]) expect(text).not.toContain(secret);
  });

  it("refuses a private destination unless allowPrivateNetworks", async () => {
    const r = await send("/ok", { allowPrivateNetworks: false });
    expect(r).toMatchObject({ ok: false, error: "destination refused: 127.0.0.1 is a loopback address" });
    expect(r.status).toBeUndefined();
    for (const host of [`[::1]:${port}`, `2130706433:${port}`, `0x7f.1:${port}`]) {
      expect((await sendWebhook({ url: `http://${host}/ok`, body, timeoutMs: 2000 })).error).toMatch(
        /^destination refused: (::1|127\.0\.0\.1) is a loopback address$/,
      );
    }
    expect(received).toHaveLength(0);
  });

  it("refuses at connect time a host name that resolves to loopback", async () => {
    const r = await sendWebhook({
      url: `http://localhost:${port}/ok`,
      body,
      timeoutMs: 2000,
      allowPrivateNetworks: false,
    });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/^destination refused: (127\.0\.0\.1|::1) is a loopback address$/);
    expect(received).toHaveLength(0);
    // The same name is fine where private networks are allowed.
    expect(
      await sendWebhook({ url: `http://localhost:${port}/ok`, body, timeoutMs: 2000, allowPrivateNetworks: true }),
    ).toMatchObject({ ok: true });
  });

  it("refuses what is no webhook URL", async () => {
    expect((await sendWebhook({ url: "ftp://example.com/", body, timeoutMs: 100 })).error).toMatch(/scheme/);
    expect(
      (await sendWebhook({ url: `http://u:p@127.0.0.1:${port}/ok`, body, timeoutMs: 100, allowPrivateNetworks: true }))
        .error,
    ).toMatch(/credentials/);
    expect((await sendWebhook({ url: "::nonsense", body, timeoutMs: 100 })).error).toBe("invalid URL");
    expect(received).toHaveLength(0);
  });

  it("retries once on a fresh connection when a kept-alive one was reset", async () => {
    expect(await send("/reset-reused")).toMatchObject({ ok: true });
    expect(await send("/reset-reused")).toMatchObject({ ok: true, status: 200 });
    expect(received.map((x) => x.url)).toEqual(["/reset-reused", "/reset-reused", "/reset-reused"]);
  });

  it("reuses kept-alive connections across deliveries", async () => {
    connections = 0;
    for (let i = 0; i < 100; i++) expect((await send("/ok")).ok).toBe(true);
    expect(connections).toBeLessThanOrEqual(1);
    connections = 0;
    const started = performance.now();
    const inFlight = 32;
    const total = 2000;
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next++ < total) expect((await send("/no-content")).ok).toBe(true);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    expect(connections).toBeLessThanOrEqual(inFlight);
    console.info(
      `sendWebhook: ${total} deliveries with ${inFlight} in flight in ${seconds.toFixed(2)} s (${Math.round(total / seconds)}/s) over ${connections} new connections`,
    );
  });
});
