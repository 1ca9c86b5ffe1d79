// Limits that follow cost, per caller: requests in progress at once, and request body bytes a minute. A
// caller over its limit gets 429 with Retry-After and nothing stored; other callers are not affected.
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { announcement, basicAuth, expectError } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** A POST whose body never finishes arriving: a request in progress until the socket closes. */
function hangingPost(origin: string, path: string, authorization: string, length = 1000): Promise<net.Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"merchants_ref":`);
      resolve(socket);
    });
    socket.on("error", reject);
  });
}

describe("per-caller limits", () => {
  it("refuses a caller's request beyond its concurrent limit with 429, never another caller's", async () => {
    srv = await startTestServer({ concurrentRequestsPerCaller: 4 });
    const busy = await srv.merchant("busy.example.com");
    const calm = await srv.merchant("calm.example.com");
    const sockets = await Promise.all(Array.from({ length: 4 }, () => hangingPost(srv!.origin, "/2015-01-01/inbound_shipments/_create", basicAuth("M-busy.example.com", "secret-busy.example.com"))));
    // The hanging requests hold a slot once authenticated, which on a loaded machine can take a while: a read
    // (which stores nothing) is asked again until they are all in progress.
    await expect.poll(async () => (await busy.GET("/inbound_shipments", {})).response.status, { timeout: 10_000 }).toBe(429);

    const refused = await busy.GET("/inbound_shipments", {});
    expectError(refused, 429, "rate_limited");
    expect(refused.response.headers.get("retry-after")).toBe("1");
    expect((await calm.GET("/inbound_shipments", {})).response.status).toBe(200);

    // The slots come back when the requests end, however they end.
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect((await busy.GET("/inbound_shipments", {})).response.status).toBe(200);
    // Finished requests free their slot too: more than 4 in a row all pass.
    for (let i = 0; i < 6; i++) expect((await busy.GET("/inbound_shipments", {})).response.status).toBe(200);
  });

  it("lets a caller have only a few large requests in progress at once; small ones and other callers pass", async () => {
    srv = await startTestServer({ concurrentRequestsPerCaller: 64, heavyRequestsPerCaller: 2 });
    const heavy = await srv.merchant("bulk.example.com");
    const other = await srv.merchant("other-bulk.example.com");
    const auth = basicAuth("M-bulk.example.com", "secret-bulk.example.com");
    const sockets = await Promise.all([0, 1].map(() => hangingPost(srv!.origin, "/2015-01-01/orders/_create", auth, 100_000)));
    // Until both hanging requests hold their slot, a large body that fails validation (so nothing is stored) is
    // answered 400; then 429.
    const invalidLarge = { merchants_ref: 1, padding: "z".repeat(20_000) } as never;
    await expect.poll(async () => (await heavy.POST("/orders/_create", { body: invalidLarge })).response.status, { timeout: 10_000 }).toBe(429);
    const big = { merchants_ref: "BULK", customer: { postalcode: "00100", country: "FI" as const }, products: Array.from({ length: 200 }, (_, i) => ({ merchants_id: `SKU-${i}`, name: `Product ${i} ${"y".repeat(80)}`, qty: 1, unit_price: 1, weight_g: 100 })) };
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(16 * 1024);
    const refused = await heavy.POST("/orders/_create", { body: big });
    expectError(refused, 429, "rate_limited");
    expect(refused.response.headers.get("retry-after")).toBe("1");
    // A small write of the same caller, and a large one of another, go through.
    expect((await heavy.POST("/inbound_shipments/_create", { body: announcement() })).response.status).toBe(201);
    expect((await other.POST("/orders/_create", { body: big })).response.status).toBe(201);
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect((await heavy.POST("/orders/_create", { body: big })).response.status).toBe(201);
  });

  it("refuses a caller's body bytes beyond its minute's allowance with 429, storing nothing, never another caller's", async () => {
    srv = await startTestServer({ bodyBytesPerMinute: 60_000 });
    const heavy = await srv.merchant("heavy.example.com");
    const light = await srv.merchant("light.example.com");
    // About 11 KB each: as many as fit in 60,000 bytes pass, the next does not.
    const big = (n: number) => announcement({ merchants_ref: `BIG-${n}`, products: Array.from({ length: 100 }, (_, i) => ({ merchants_id: `SKU-${n}-${i}`, name: `Product ${i} ${"x".repeat(60)}`, qty: 1 })) });
    const size = Buffer.byteLength(JSON.stringify(big(0)));
    expect(size).toBeGreaterThan(10_000);
    const fit = Math.floor(60_000 / size);
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof heavy.POST>> | undefined;
    for (let n = 0; n < 10 && !refused; n++) {
      const r = await heavy.POST("/inbound_shipments/_create", { body: big(n) });
      if (r.response.status === 201) accepted++;
      else refused = r;
    }
    expect(accepted).toBe(fit);
    expectError(refused!, 429, "rate_limited");
    const wait = Number(refused!.response.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    const listed = await heavy.GET("/inbound_shipments", { params: { query: { limit: 100 } } });
    expect(listed.data!.items).toHaveLength(fit);
    // Reads without a body still pass, and another caller has its own allowance.
    expect(listed.response.status).toBe(200);
    expect((await light.POST("/inbound_shipments/_create", { body: big(99) })).response.status).toBe(201);
  });
});
