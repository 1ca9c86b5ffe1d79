// The requests' tallies give a scrape the same text and JSON as prom-client's Counter and Histogram fed the same
// requests, whatever the latencies (on a bound, between, above the last, zero) and however scrapes fall between them.
import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { requestTallies } from "../../server/metrics/request-tallies.ts";

const BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const names = {
  counterName: "http_requests_total",
  counterHelp: "API requests by operation and status.",
  histogramName: "http_request_duration_seconds",
  histogramHelp: "API request latency by operation and status.",
};

function pair() {
  const ours = new Registry();
  const tallies = requestTallies(ours, { ...names, buckets: BUCKETS });
  const theirs = new Registry();
  const labelNames = ["operation", "status"];
  const count = new Counter({ name: names.counterName, help: names.counterHelp, labelNames, registers: [theirs] });
  const latency = new Histogram({
    name: names.histogramName,
    help: names.histogramHelp,
    labelNames,
    buckets: BUCKETS,
    registers: [theirs],
  });
  const add = (operation: string, status: number, seconds: number) => {
    tallies.add(operation, status, seconds);
    count.inc({ operation, status: String(status) });
    latency.observe({ operation, status: String(status) }, seconds);
  };
  return { ours, theirs, add };
}

describe("request tallies", () => {
  it("read before any request: the same (empty) metrics", async () => {
    const { ours, theirs } = pair();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it("the same text and JSON as prom-client's, across scrapes in between", async () => {
    const { ours, theirs, add } = pair();
    const latencies = [0, 0.001, 0.002, 0.0021, 0.005, 0.3, 1, 9.99, 10, 10.5, 120, ...BUCKETS];
    const operations = ["getInboundShipment", "getShippingOptions", "unmatched"];
    let n = 0;
    for (const seconds of latencies)
      for (const operation of operations)
        for (const status of [200, 404, 500]) {
          add(operation, status, seconds * (1 + (n++ % 3) / 7));
          if (n % 17 === 0) expect(await ours.metrics()).toBe(await theirs.metrics());
        }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.002",operation="getInboundShipment",status="200"}',
    );
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it("a reset of the registry's metrics empties both alike", async () => {
    const { ours, theirs, add } = pair();
    add("getInboundShipment", 200, 0.003);
    await ours.metrics();
    ours.resetMetrics();
    theirs.resetMetrics();
    add("getInboundShipment", 200, 0.2);
    add("getInboundShipment", 201, 0.02);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
