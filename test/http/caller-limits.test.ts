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
function hangingPost(
  origin: string,
  path: string,
  authorization: string,
  length = 1000,
): Promise<{ socket: net.Socket; answered: () => boolean }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    let answered = false;
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"merchants_ref":`,
      );
      resolve({ socket, answered: () => answered });
    });
    socket.on("data", () => (answered = true));
    socket.on("close", () => (answered = true));
    socket.on("error", reject);
  });
}

/**
 * Opens `n` hanging requests and returns once all of them hold a slot, shown by `probe` (a request that stores
 * nothing) being refused with 429. A probe that is let through takes a slot for a moment, and a hanging request
 * arriving then is refused: that one is replaced, so the wait ends with exactly `n` requests in progress.
 */
async function holdSlots(
  n: number,
  open: () => Promise<{ socket: net.Socket; answered: () => boolean }>,
  probe: () => Promise<number>,
) {
  let held: Awaited<ReturnType<typeof open>>[] = [];
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    held = held.filter((h) => !h.answered() || (h.socket.destroy(), false));
    held.push(...(await Promise.all(Array.from({ length: n - held.length }, open))));
    await new Promise((r) => setTimeout(r, 50));
    if ((await probe()) === 429 && held.every((h) => !h.answered())) return held.map((h) => h.socket);
  }
  throw new Error(`the ${n} hanging requests did not all hold a slot in 20 s`);
}

describe("per-caller limits", () => {
  it("refuses a caller's request beyond its concurrent limit with 429, never another caller's", async () => {
    srv = await startTestServer({ concurrentRequestsPerCaller: 4 });
    const busy = await srv.merchant("busy.example.com");
    const calm = await srv.merchant("calm.example.com");
    const sockets = await holdSlots(
      4,
      () =>
        hangingPost(
          srv!.origin,
          "/2015-01-01/inbound_shipments/_create",
          basicAuth("M-busy.example.com", "secret-busy.example.com"),
        ),
      async () => (await busy.GET("/inbound_shipments", {})).response.status,
    );

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
    // The probe: a large body that fails validation (400 when let through), so it stores nothing.
    const invalidLarge = { merchants_ref: 1, padding: "z".repeat(20_000) } as never;
    const sockets = await holdSlots(
      2,
      () => hangingPost(srv!.origin, "/2015-01-01/orders/_create", auth, 100_000),
      async () => (await heavy.POST("/orders/_create", { body: invalidLarge })).response.status,
    );
    const big = {
      merchants_ref: "BULK",
      customer: { postalcode: "00100", country: "FI" as const },
      products: Array.from({ length: 200 }, (_, i) => ({
        merchants_id: `SKU-${i}`,
        name: `Product ${i} ${"y".repeat(80)}`,
        qty: 1,
        unit_price: 1,
        weight_g: 100,
      })),
    };
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
    const big = (n: number) =>
      announcement({
        merchants_ref: `BIG-${n}`,
        products: Array.from({ length: 100 }, (_, i) => ({
          merchants_id: `SKU-${n}-${i}`,
          name: `Product ${i} ${"x".repeat(60)}`,
          qty: 1,
        })),
      });
    const size = Buffer.byteLength(JSON.stringify(big(0)));
    expect(size).toBeGreaterThan(10_000);
    const fit = Math.floor(60_000 / size);
    let accepted = 0;
    const send = (n: number) => heavy.POST("/inbound_shipments/_create", { body: big(n) });
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    for (let n = 0; n < 10 && !refused; n++) {
      const r = await send(n);
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
