// A noisy neighbour: one merchant's 20 hanging endpoints and hundreds of queued events use up that
// merchant's share of the dispatcher only; another merchant's delivery still arrives within a second.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { performance } from "node:perf_hooks";
import { inTransaction } from "../../server/db/transaction.ts";
import { recordEvent } from "../../server/webhooks/outbox.ts";
import { TEST_EVENTS_PER_WINDOW } from "../../server/webhooks/deliveries.ts";
import { expectError } from "../helpers/fixtures.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
let rx: Receiver;
let release: () => void;
const hung = new Promise<void>((r) => (release = r));

beforeAll(async () => {
  rx = await startReceiver();
  // Hanging receivers answer only when the test ends (or the attempt times out after 10 s).
  rx.respond = (req) => (req.path.startsWith("/hang") ? hung.then(() => 200) : 204);
  srv = await startTestServer({
    webhooks: { timeoutMs: 10_000, allowPrivateNetworks: true, retrySchedule: [30] },
    dispatcher: { pollMs: 600_000 },
  });
});
afterAll(async () => {
  release();
  await srv?.close();
  await rx?.close();
});

const payload = (n: number) => ({
  shipment_id: "0".repeat(23) + (n % 10),
  merchants_ref: `PO-${n}`,
  from_status: "initial" as const,
  status: "confirmed" as const,
});

describe("fair delivery", () => {
  it("a merchant's 20 hanging endpoints and 400 queued deliveries leave another merchant's delivery under a second", async () => {
    const noisy = await srv.merchant("noisy.example.com");
    for (let i = 0; i < 20; i++) {
      const r = await noisy.POST("/webhook_endpoints/_create", {
        body: { url: rx.url(`/hang-${i}`), event_types: ["inbound_shipment.status_changed"] },
      });
      expect(r.response.status).toBe(201);
    }
    // 20 events to 20 endpoints: 400 deliveries, all due now.
    await inTransaction(srv.handle.db, async (trx) => {
      for (let n = 0; n < 20; n++)
        await recordEvent(trx, "inbound_shipment.status_changed", "noisy.example.com", new Date(), payload(n));
    });
    // The noisy merchant's share fills up: 16 per endpoint would be 320, more than all 256 slots.
    const deadline = Date.now() + 10_000;
    while (rx.received.filter((x) => x.path.startsWith("/hang")).length < 64 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    const hanging = rx.received.filter((x) => x.path.startsWith("/hang")).length;
    expect(hanging).toBe(64); // its share: a quarter of the slots, whatever its backlog

    const quiet = await srv.merchant("quiet.example.com");
    const ep = await quiet.POST("/webhook_endpoints/_create", {
      body: { url: rx.url("/quiet"), event_types: ["inbound_shipment.status_changed"] },
    });
    expect(ep.response.status).toBe(201);
    const times: number[] = [];
    for (let n = 0; n < 3; n++) {
      const before = rx.received.filter((x) => x.path === "/quiet").length;
      await inTransaction(srv.handle.db, (trx) =>
        recordEvent(trx, "inbound_shipment.status_changed", "quiet.example.com", new Date(), payload(n)),
      );
      const committed = performance.now();
      const got = await rx.waitFor(before + 1, { path: "/quiet", timeoutMs: 5_000 });
      times.push(got[got.length - 1]!.at - committed);
    }
    expect(Math.max(...times), JSON.stringify(times)).toBeLessThan(1_000);
    // Still no more of the noisy merchant's requests in flight than its share.
    expect(rx.received.filter((x) => x.path.startsWith("/hang")).length).toBe(64);
  });

  it(`test events are limited to ${TEST_EVENTS_PER_WINDOW} a minute per endpoint (429 with Retry-After, nothing queued)`, async () => {
    const m = await srv.merchant("tester.example.com");
    const at = (id: string) => ({ params: { path: { webhook_id: id } } });
    const a = (
      await m.POST("/webhook_endpoints/_create", {
        body: { url: rx.url("/tests-a"), event_types: ["inbound_shipment.status_changed"] },
      })
    ).data!;
    const b = (
      await m.POST("/webhook_endpoints/_create", {
        body: { url: rx.url("/tests-b"), event_types: ["inbound_shipment.status_changed"] },
      })
    ).data!;
    for (let i = 0; i < TEST_EVENTS_PER_WINDOW; i++)
      expect((await m.POST("/webhook_endpoints/{webhook_id}/_test", at(a.id))).response.status).toBe(202);
    // Nothing queued by the refused call (the dispatcher is busy sending the others, so count, not snapshot).
    const queued = async () =>
      (
        await srv.handle.db
          .selectFrom("webhook_deliveries")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("endpoint_id", "=", a.id)
          .executeTakeFirstOrThrow()
      ).n;
    const refused = await m.POST("/webhook_endpoints/{webhook_id}/_test", at(a.id));
    expectError(refused, 429, "rate_limited");
    expect(Number(await queued())).toBe(TEST_EVENTS_PER_WINDOW);
    const wait = Number(refused.response.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // Another endpoint has its own allowance.
    expect((await m.POST("/webhook_endpoints/{webhook_id}/_test", at(b.id))).response.status).toBe(202);
  });
});
