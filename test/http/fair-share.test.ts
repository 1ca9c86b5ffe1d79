// The event loop shared fairly, through the server (issue 25): while another merchant is active, one merchant's
// many explained requests are answered in turn, each the same as alone, and the other's reads meanwhile are
// answered 200; a caller who loops on its 429s gets them after a pause, another caller at once. The scheduling
// itself is tested step by step in test/unit/fair-share.test.ts and refusal-pace.test.ts; npm run
// bench:neighbours measures what it does for the other merchant's latency.
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { REFUSAL_PACE } from "../../server/http/refusal-pace.ts";
import { FAIR_SHARE } from "../../server/http/fair-share.ts";
import { expectError } from "../helpers/fixtures.ts";
import { startTestServer, useTestServer, type TestServer } from "../helpers/server.ts";
import { SETTINGS, configure, list, loadDemo } from "../helpers/shipping.ts";

const TOKEN = "fair-share-metrics-token";
let srv: TestServer;
let busy: LogisticsClient;
let quiet: LogisticsClient;

useTestServer(
  async (s) => {
    srv = s;
    busy = await s.merchant("fair-busy.example.com");
    quiet = await s.merchant("fair-quiet.example.com");
    await loadDemo(s);
    await configure(busy, { ...SETTINGS, pickup_points_limit: 20 }, [list("pickup"), list("home")]);
    await configure(quiet, SETTINGS, [list("pickup"), list("home")]);
  },
  { metricsToken: TOKEN },
);

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${srv.origin}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  expect(line, text.slice(0, 500)).toBeDefined();
  return Number(line!.split(" ")[1]);
}
// Requests waiting their turn now, and those that waited since the start: the count sees every wait, however short
// (a poll of the gauge catches only those that last until it looks: it missed 10 ms turns on a fast machine).
const waitingTurn = () => metric("http_requests_waiting_turn");
const waitedTurn = () => metric("http_requests_waited_turn_total");

const explained = () =>
  busy.GET("/shipping_options", { params: { query: { postalcode: "00100", country: "FI", explain: true } } });

describe("the fair share", () => {
  it("answers one merchant's concurrent explained requests in turn, each as alone, while another's reads all pass", async () => {
    await new Promise((r) => setTimeout(r, FAIR_SHARE.activeMs + 100));
    const alone = await explained();
    expect(alone.response.status).toBe(200);

    let polling = true;
    const quietStatuses: number[] = [];
    const poll = (async () => {
      while (polling) {
        quietStatuses.push((await quiet.GET("/merchant/shipping_settings")).response.status);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      // The other merchant is active once one of its reads has been answered (on a loaded machine, the first can
      // take longer than any fixed pause; before it arrives, this merchant is alone and runs all four at once).
      while (quietStatuses.length === 0) await new Promise((r) => setTimeout(r, 5));
      // In turn, each next one after twice the last one's time: the others waited their turn meanwhile, as /metrics
      // counts. (How many depends on when the other merchant's reads count it active, and on how close together the
      // four arrive: an explained answer from the caches takes a millisecond or two, and a loaded machine can space
      // four arrivals wider than that. So up to three bursts; a fair share that never holds one back fails all three.)
      let waited = 0;
      for (let burst = 0; burst < 3 && waited === 0; burst++) {
        const waitedBefore = await waitedTurn();
        const all = await Promise.all(Array.from({ length: 4 }, () => explained()));
        for (const r of all) {
          expect(r.response.status).toBe(200);
          expect(r.data).toEqual(alone.data);
        }
        waited = (await waitedTurn()) - waitedBefore;
      }
      expect(waited).toBeGreaterThanOrEqual(1);
    } finally {
      polling = false;
      await poll;
    }
    // Once the other merchant's reads stopped too: one of them may wait its turn while this one is still active.
    expect(await waitingTurn()).toBe(0);
    expect(quietStatuses.length).toBeGreaterThan(0);
    expect(new Set(quietStatuses)).toEqual(new Set([200]));
  });
});

describe("the pace of refusals", () => {
  it(`answers a caller's ${REFUSAL_PACE.burst + 1}th 429 within a second after a pause, with Retry-After, and another caller at once`, async () => {
    const own = await startTestServer({ rateLimitPerMinute: 2 });
    try {
      const looping = await own.merchant("looping.example.com");
      const other = await own.merchant("patient.example.com");
      for (let i = 0; i < 2; i++) expect((await looping.GET("/inbound_shipments")).response.status).toBe(200);
      const times: number[] = [];
      for (let i = 0; i <= REFUSAL_PACE.burst; i++) {
        const t0 = performance.now();
        const r = await looping.GET("/inbound_shipments");
        times.push(performance.now() - t0);
        expectError(r, 429, "rate_limited");
        expect(Number(r.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
      // The burst may straddle a second's start; then all came at once, and the next ten are the ones held.
      const held = times.filter((t) => t >= REFUSAL_PACE.holdMs - 50).length;
      expect(held).toBeLessThanOrEqual(1);
      if (held === 0) {
        const t0 = performance.now();
        for (let i = 0; i < REFUSAL_PACE.burst; i++) await looping.GET("/inbound_shipments");
        expect(performance.now() - t0).toBeGreaterThanOrEqual(REFUSAL_PACE.holdMs - 50);
      }
      const t0 = performance.now();
      expect((await other.GET("/inbound_shipments")).response.status).toBe(200);
      expect(performance.now() - t0).toBeLessThan(REFUSAL_PACE.holdMs - 50);
    } finally {
      await own.close();
    }
  });
});
