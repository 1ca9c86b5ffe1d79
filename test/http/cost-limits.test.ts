// Cost counted where it is spent (issue 25): a chunked body is charged to the caller's body bytes as it arrives
// and counts as a heavy request; the bytes of every answer, HEAD's included, are charged to the caller's response
// bytes; an error answer lists at most 50 details. Over a budget: 429 with Retry-After, and nothing stored.
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { announcement, basicAuth, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer | undefined;
let other: TestServer | undefined;
afterEach(async () => {
  await other?.close();
  await srv?.close();
  srv = other = undefined;
});

const CREATE = "/2015-01-01/inbound_shipments/_create";

/** `body` as HTTP/1.1 chunks of at most 4 KB, without a Content-Length. */
function chunked(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i += 4096) {
    const part = body.slice(i, i + 4096);
    out += `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`;
  }
  return `${out}0\r\n\r\n`;
}

function postChunked(s: TestServer, user: string, path: string, body: string) {
  const { host } = new URL(s.origin);
  return rawRequest(
    s.origin,
    [
      `POST ${path} HTTP/1.1`,
      `Host: ${host}`,
      `Authorization: ${basicAuth(`M-${user}`, `secret-${user}`)}`,
      "Content-Type: application/json",
      "Transfer-Encoding: chunked",
    ],
    chunked(body),
    20_000,
  );
}

const big = (n: number) =>
  JSON.stringify(
    announcement({
      merchants_ref: `CHUNK-${n}`,
      products: Array.from({ length: 100 }, (_, i) => ({
        merchants_id: `SKU-${n}-${i}`,
        name: `Product ${i} ${"x".repeat(60)}`,
        qty: 1,
      })),
    }),
  );

describe("chunked bodies", () => {
  it("are charged as they arrive: beyond the minute's body bytes 429 with Retry-After, the refused one not stored", async () => {
    srv = await startTestServer({ bodyBytesPerMinute: 60_000 });
    const m = await srv.merchant("chunky.example.com");
    const size = Buffer.byteLength(big(0));
    expect(size).toBeGreaterThan(10_000);
    const fit = Math.floor(60_000 / size);
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof rawRequest>> | undefined;
    for (let n = 0; n < 10 && !refused; n++) {
      const r = await postChunked(srv, "chunky.example.com", CREATE, big(n));
      if (r.status === 201) accepted++;
      else refused = r;
    }
    expect(accepted).toBe(fit);
    expect(refused!.status).toBe(429);
    expect(JSON.parse(refused!.body)).toMatchObject({ success: false, code: "rate_limited" });
    const wait = Number(refused!.headers["retry-after"]);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    const listed = await m.GET("/inbound_shipments", { params: { query: { limit: 100 } } });
    expect(listed.data!.items).toHaveLength(fit);
    // The next, even unchunked, is refused too: the bytes were counted in the same budget.
    const after = await m.POST("/inbound_shipments/_create", { body: JSON.parse(big(50)) as never });
    expectError(after, 429, "rate_limited");
  });

  it("count as heavy up front: with 1 heavy request in progress a chunked one is 429, a small declared one passes", async () => {
    srv = await startTestServer({ concurrentRequestsPerCaller: 64, heavyRequestsPerCaller: 1 });
    const user = "streamer.example.com";
    const m = await srv.merchant(user);
    const { hostname, port, host } = new URL(srv.origin);
    // A chunked request whose body never ends: heavy, in progress until its socket closes. A probe is heavy too,
    // so on a slow machine a probe may hold the one slot when the hanging request arrives: then the hanging one
    // is the 429 (the same rule seen from the other side), and a new one is opened.
    let answered = "";
    const openHanging = () => {
      answered = "";
      const socket = net.connect(Number(port), hostname);
      socket.on("data", (d: Buffer) => (answered += d.toString("latin1")));
      socket.on("error", () => undefined);
      socket.write(
        `POST ${CREATE} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basicAuth(`M-${user}`, `secret-${user}`)}\r\n` +
          `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"mer\r\n`,
      );
      return socket;
    };
    let hanging = openHanging();
    try {
      // Until the hanging request holds its slot, a small chunked probe (invalid: stores nothing) is let through.
      let probe = await postChunked(srv, user, CREATE, "{}");
      const deadline = Date.now() + 20_000;
      while (probe.status !== 429 && Date.now() < deadline) {
        expect(probe.status).toBe(400);
        await new Promise((r) => setTimeout(r, 100));
        if (answered !== "") {
          expect(answered.split("\r\n")[0]).toBe("HTTP/1.1 429 Too Many Requests");
          hanging.destroy();
          hanging = openHanging();
        }
        probe = await postChunked(srv, user, CREATE, "{}");
      }
      expect(probe.status).toBe(429);
      expect(probe.headers["retry-after"]).toBe("1");
      expect(JSON.parse(probe.body)).toMatchObject({ code: "rate_limited" });
      expect(answered).toBe("");
      expect((await m.POST("/inbound_shipments/_create", { body: announcement() })).response.status).toBe(201);
    } finally {
      hanging.destroy();
    }
  });
});

describe("response bytes a minute", () => {
  it("charges every answer, HEAD as its GET; once spent, 429 with Retry-After, other callers unaffected", async () => {
    srv = await startTestServer({ responseBytesPerMinute: 20_000 });
    const m = await srv.merchant("reader.example.com");
    const calm = await srv.merchant("calm-reader.example.com");
    const auth = basicAuth("M-reader.example.com", "secret-reader.example.com");
    // Every answer's bytes, as the server counts them: its Content-Length (a HEAD's is its GET's).
    let spent = 0;
    const call = async (method: string, body?: unknown) => {
      const r = await fetch(`${srv!.baseUrl}/inbound_shipments${body ? "/_create" : ""}`, {
        method,
        headers: { Authorization: auth, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await r.arrayBuffer();
      return r;
    };
    for (let i = 0; i < 5; i++) {
      const r = await call("POST", announcement());
      expect(r.status).toBe(201);
      spent += Number(r.headers.get("content-length"));
    }
    const get = await call("GET");
    const size = Number(get.headers.get("content-length"));
    spent += size;
    expect(size).toBeGreaterThan(2000);
    let refused: Response | undefined;
    let heads = 0;
    while (!refused && heads < 100) {
      const before = spent;
      const r = await call("HEAD");
      if (r.status !== 200) {
        refused = r;
        expect(before).toBeGreaterThanOrEqual(20_000);
        break;
      }
      // Let through only while the budget was not yet spent.
      expect(before).toBeLessThan(20_000);
      expect(Number(r.headers.get("content-length"))).toBe(size);
      spent += size;
      heads++;
    }
    // HEADs answer no body, yet they spent the budget as GETs would have.
    expect(heads).toBeGreaterThanOrEqual(1);
    expect(refused!.status).toBe(429);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expectError(await m.GET("/inbound_shipments", {}), 429, "rate_limited");
    expect((await calm.GET("/inbound_shipments", {})).response.status).toBe(200);
  });

  it("is shared by instances on one database: spent on one, refused on the other", async () => {
    srv = await startTestServer({ responseBytesPerMinute: 5_000 });
    other = await startTestServer({ responseBytesPerMinute: 5_000, database: srv.handle });
    const m = await srv.merchant("shared-reader.example.com");
    const n = other.client("M-shared-reader.example.com", "secret-shared-reader.example.com");
    for (let i = 0; i < 3; i++) await m.POST("/inbound_shipments/_create", { body: announcement() });
    while ((await m.GET("/inbound_shipments", {})).response.status === 200);
    await new Promise((r) => setTimeout(r, 300)); // each instance sends its counts every 100 ms
    expectError(await n.GET("/inbound_shipments", {}), 429, "rate_limited");
  });
});

describe("error details", () => {
  it("an answer lists at most 50 details and says how many there were", async () => {
    srv = await startTestServer({});
    const m = await srv.merchant("typos.example.com");
    const body = { ...announcement(), ...Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`typo_${i}`, i])) };
    const r = await expectUnchanged(srv, () => m.POST("/inbound_shipments/_create", { body: body as never }));
    const e = expectError(r, 400, "validation_failed", ["/body/typo_0"]);
    expect(e.details).toHaveLength(50);
    expect(e.details_total).toBe(120);
    // Under the cap, the list is complete and says nothing more.
    const few = { ...announcement(), typo_a: 1, typo_b: 2 };
    const f = expectError(await m.POST("/inbound_shipments/_create", { body: few as never }), 400, "validation_failed");
    expect(f.details).toHaveLength(2);
    expect(f.details_total).toBeUndefined();
  });
});
