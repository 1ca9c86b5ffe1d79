// The API's request count and latency, kept as plain numbers per operation and status and handed to prom-client only
// when a scrape reads them. prom-client's own `inc` and `observe` check and hash the label object at every call, even
// through `labels()`'s children (1.8 µs of every request in an instrumented build: bench/levers.md sections 43 and 46); here a
// request costs two map reads, three additions and a bucket search. The text a scrape gets is prom-client's own for
// a Counter and a Histogram fed the same requests (test/unit/request-tallies.test.ts compares them).
import { Counter, type Registry } from "prom-client";

/** One operation and status's tallies. */
interface Series {
  labels: { operation: string; status: string };
  count: number;
  sum: number;
  /** Requests not yet given to the counter. */
  uncounted: number;
  /** Requests per bucket, not cumulative: the last one is above every bound. */
  buckets: number[];
}

export interface RequestTallies {
  /** One answered request of `operation` with `status`, which took `seconds`. */
  add(operation: string, status: number, seconds: number): void;
}

export function requestTallies(
  registry: Registry,
  o: { counterName: string; counterHelp: string; histogramName: string; histogramHelp: string; buckets: number[] },
): RequestTallies {
  const bounds = [...o.buckets].sort((a, b) => a - b);
  const byOperation = new Map<string, Map<number, Series>>();
  const all: Series[] = [];
  const seriesOf = (operation: string, status: number): Series => {
    let byStatus = byOperation.get(operation);
    if (!byStatus) byOperation.set(operation, (byStatus = new Map<number, Series>()));
    let s = byStatus.get(status);
    if (!s) {
      s = {
        labels: { operation, status: String(status) },
        count: 0,
        sum: 0,
        uncounted: 0,
        buckets: bounds.map(() => 0),
      };
      s.buckets.push(0);
      byStatus.set(status, s);
      all.push(s);
    }
    return s;
  };

  new Counter({
    name: o.counterName,
    help: o.counterHelp,
    labelNames: ["operation", "status"],
    registers: [registry],
    collect() {
      for (const s of all) {
        if (s.uncounted === 0) continue;
        this.inc(s.labels, s.uncounted);
        s.uncounted = 0;
      }
    },
  });

  // A histogram as prom-client's Histogram exports one: per series each bound's cumulative count, +Inf, sum, count.
  const name = o.histogramName;
  const exported = () =>
    all.flatMap((s) => {
      let below = 0;
      const values: {
        labels: Record<string, string | number>;
        sharedLabels: Series["labels"];
        value: number;
        metricName: string;
        exemplar?: null;
      }[] = bounds.map((le, i) => ({
        labels: { le },
        sharedLabels: s.labels,
        value: (below += s.buckets[i]!),
        metricName: `${name}_bucket`,
        exemplar: null,
      }));
      values.push(
        {
          labels: { le: "+Inf" },
          sharedLabels: s.labels,
          value: s.count,
          metricName: `${name}_bucket`,
          exemplar: null,
        },
        { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${name}_count` },
      );
      return values;
    });
  const histogram = {
    name,
    help: o.histogramHelp,
    type: "histogram",
    aggregator: "sum",
    // The registry's text reads this one (labels and shared labels apart, as prom-client's Histogram gives them).
    getForPromString: async () => ({
      name,
      help: o.histogramHelp,
      type: "histogram",
      values: exported(),
      aggregator: "sum",
    }),
    // Its JSON reads this one: each value's labels in one object.
    get: async () => ({
      name,
      help: o.histogramHelp,
      type: "histogram",
      aggregator: "sum",
      values: exported().map(({ labels, sharedLabels, ...rest }) => ({
        ...rest,
        labels: { ...labels, ...sharedLabels },
      })),
    }),
    reset: () => {
      // The counter is prom-client's own, reset apart.
      for (const s of all) {
        s.count = 0;
        s.sum = 0;
        s.buckets.fill(0);
      }
    },
  };
  registry.registerMetric(histogram as unknown as Parameters<Registry["registerMetric"]>[0]);

  return {
    add(operation, status, seconds) {
      const s = seriesOf(operation, status);
      s.count++;
      s.uncounted++;
      s.sum += seconds;
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i++;
      s.buckets[i]!++;
    },
  };
}
