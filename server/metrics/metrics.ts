// Prometheus metrics for operators (prom-client): requests by operation and status, latency, the pool,
// the webhook outbox and delivery outcomes, and whether the database answers. One registry per app
// instance, so that several apps in one process (tests) do not mix their counts.
import type { NextFunction, Request } from "express";
import { sql } from "kysely";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type { DatabaseHandle } from "../db/database.ts";
import { matchedOperation, type Res } from "../http/express.ts";
import { reads } from "../db/statement-ways.ts";
import { mergeCounts } from "../db/write-merges.ts";
import { requestTallies } from "./request-tallies.ts";

export type DeliveryOutcome = "succeeded" | "retrying" | "failed";

export interface Metrics {
  registry: Registry;
  // Function properties, not methods: both are handed on unbound (as middleware, as a dispatcher callback).
  /** Counts and times every request under the base path by operationId and status. */
  observeRequests: (req: Request, res: Res, next: NextFunction) => void;
  deliveryAttempt: (outcome: DeliveryOutcome, count?: number) => void;
  /** An answer that broke the API contract, by operation (sampled response checks). */
  responseViolation: (operation: string) => void;
  /** A gauge read at each scrape from what its owner knows (queues in memory). */
  gauge: (name: string, help: string, read: () => number) => void;
  /** A counter whose total its owner keeps, read at each scrape. */
  counter: (name: string, help: string, read: () => number) => void;
}

/** A scrape must answer while the database is away: its queries give up after this long. */
const SCRAPE_QUERY_TIMEOUT_MS = 1_000;

export function createMetrics(
  handle: Pick<DatabaseHandle, "db" | "poolStats">,
  opts: { defaultMetrics?: boolean } = {},
): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry });
  const requests = requestTallies(registry, {
    counterName: "http_requests_total",
    counterHelp: "API requests by operation and status.",
    histogramName: "http_request_duration_seconds",
    histogramHelp: "API request latency by operation and status.",
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const attempts = new Counter({
    name: "webhook_delivery_attempts_total",
    help: "Webhook delivery attempts by outcome (retrying: failed, another attempt is scheduled).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of ["succeeded", "retrying", "failed"]) attempts.inc({ outcome }, 0);
  const violations = new Counter({
    name: "http_response_violations_total",
    help: "API answers that broke the contract (of those checked: RESPONSE_VALIDATION_PERCENT), by operation.",
    labelNames: ["operation"],
    registers: [registry],
  });

  new Gauge({
    name: "db_pool_connections",
    help: "Database pool: open and idle connections, and requests waiting for one.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const s = handle.poolStats();
      this.set({ state: "total" }, s.total);
      this.set({ state: "idle" }, s.idle);
      this.set({ state: "waiting" }, s.waiting);
    },
  });
  // One query per scrape for the database and the outbox; the three gauges share its answer.
  let scrape: Promise<{ up: boolean; pending: number; oldest: number }> | undefined;
  const outbox = () => (scrape ??= queryOutbox(handle).finally(() => setTimeout(() => (scrape = undefined), 0)));
  new Gauge({
    name: "db_up",
    help: "1 when the database answered this scrape within a second, else 0.",
    registers: [registry],
    async collect() {
      this.set((await outbox()).up ? 1 : 0);
    },
  });
  new Gauge({
    name: "webhook_outbox_pending",
    help: "Webhook deliveries not yet delivered or failed for good.",
    registers: [registry],
    async collect() {
      const o = await outbox();
      if (o.up) this.set(o.pending); // while the database is away, the last known value stays
    },
  });
  new Gauge({
    name: "webhook_oldest_undelivered_age_seconds",
    help: "Age of the oldest event with a delivery still pending (0: none).",
    registers: [registry],
    async collect() {
      const o = await outbox();
      if (o.up) this.set(o.oldest);
    },
  });

  /** A counter whose total its owner keeps, read at each scrape. */
  const counter = (name: string, help: string, read: () => number) => {
    let counted = 0;
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const total = read();
        if (total > counted) this.inc(total - counted);
        counted = total;
      },
    });
  };
  // The process's merged writes (db/write-merges.ts): how much the batching saves, and how often a merge falls back.
  counter(
    "db_merged_statements_total",
    "Statements that carried several writes at once (creates merged in one write batch).",
    () => mergeCounts.statements,
  );
  counter("db_merged_writes_total", "Writes carried by merged statements.", () => mergeCounts.writes);
  counter(
    "db_merged_refused_total",
    "Merged statements the database refused; each of their writes then ran again alone, for its own answer.",
    () => mergeCounts.refused,
  );

  return {
    registry,
    observeRequests: (req, res, next) => {
      const started = performance.now();
      res.on("finish", () =>
        requests.add(
          matchedOperation(req)?.operationId ?? "unmatched",
          res.statusCode,
          (performance.now() - started) / 1000,
        ),
      );
      next();
    },
    deliveryAttempt: (outcome, count = 1) => attempts.inc({ outcome }, count),
    responseViolation: (operation) => violations.inc({ operation }),
    counter,
    gauge: (name, help, read) =>
      void new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      }),
  };
}

async function queryOutbox(
  handle: Pick<DatabaseHandle, "db">,
): Promise<{ up: boolean; pending: number; oldest: number }> {
  const query = sql<{ pending: string; oldest: number | null }>`
    select count(*) as pending, extract(epoch from now() - min(ev.created_at))::float8 as oldest
    from webhook_deliveries d join webhook_events ev on ev.id = d.event_id
    where d.status in ('pending', 'in_flight')`
    .withPlugin(reads)
    .execute(handle.db);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error("scrape query timed out")), SCRAPE_QUERY_TIMEOUT_MS)),
  );
  try {
    const r = await Promise.race([query, timeout]);
    const row = r.rows[0];
    return { up: true, pending: Number(row?.pending ?? 0), oldest: Math.max(0, row?.oldest ?? 0) };
  } catch {
    query.catch(() => {}); // settles later; nobody waits for it
    return { up: false, pending: 0, oldest: 0 };
  } finally {
    clearTimeout(timer);
  }
}
