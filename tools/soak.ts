// The soak: two server instances on one PostgreSQL (a throw-away database), a webhook receiver, and a
// realistic mix at a fixed rate (open loop: requests leave on schedule whether or not earlier ones have
// answered): 70% reads, 20% shipping options, 10% writes (creates, and arrivals that raise webhooks).
// Afterwards the database is counted: every acknowledged write is there exactly once, every event was
// delivered, and each instance's memory at the end is compared with after the warm-up. Loopback only.
// `npm run soak` runs it against the PostgreSQL of DATABASE_URL: SOAK_SECONDS (default 180) and SOAK_RATE (requests
// a second, default 50) bound it; exits 1 when a check fails. A short form runs in the suite (test/process/soak.test.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { createLogisticsClient, type LogisticsClient } from "../client/index.ts";
import { provisionAccount } from "../server/accounts/domain.ts";
import { BASE_PATH } from "../server/app.ts";
import { openDatabase } from "../server/db/database.ts";
import { DEMO } from "../server/demo.ts";
import { createScratchDatabase } from "./postgres.ts";
import { freePort, startChild, waitForHttp, type Child } from "./processes.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface SoakOptions {
  adminUrl: string;
  seconds: number;
  /** Requests a second, all instances together. */
  rate: number;
  instances?: number;
  /** Largest allowed end/start ratio of each instance's RSS (start: after the warm-up). */
  rssGrowth?: number;
  log?: (line: string) => void;
}

type Kind = "read" | "list" | "options" | "create" | "arrival";
const MIX: [Kind, number][] = [
  ["read", 0.5],
  ["list", 0.2],
  ["options", 0.2],
  ["create", 0.05],
  ["arrival", 0.05],
];

export interface SoakReport {
  seconds: number;
  requests: number;
  byKind: Record<Kind, { count: number; p50: number; p99: number; max: number }>;
  p99: number;
  statuses: Record<string, number>;
  serverErrors: number;
  clientErrors: number;
  writes: {
    createsAcknowledged: number;
    shipmentsStored: number;
    duplicateRefs: number;
    arrivalsAcknowledged: number;
    arrivalsStored: number;
  };
  webhooks: { events: number; delivered: number; undelivered: number; receivedUnique: number; receivedTwice: number };
  rss: { instance: number; startMb: number; endMb: number; ratio: number }[];
  problems: string[];
}

/** Requests waiting at once per instance, below CONCURRENT_REQUESTS_PER_CALLER's default 64. */
const MAX_IN_FLIGHT = 32;

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

export async function runSoak(opts: SoakOptions): Promise<SoakReport> {
  const log = opts.log ?? (() => {});
  const instances = opts.instances ?? 2;
  const scratch = await createScratchDatabase(opts.adminUrl);
  if ("unreachable" in scratch)
    throw new Error(`PostgreSQL at ${opts.adminUrl} is unreachable: ${scratch.unreachable}`);
  const children: Child[] = [];
  const receiver = await startCountingReceiver();
  try {
    const env = {
      ...process.env,
      DATABASE_URL: scratch.url,
      LOG_LEVEL: "warn",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      SEED_DEMO: "true",
    };
    const origins: string[] = [];
    // One at a time: the first migrates and seeds the demo (merchant, prices, pickup points).
    for (let i = 0; i < instances; i++) {
      const port = await freePort();
      const child = startChild(`server ${i + 1}`, ["--import", "tsx", "server/main.ts"], {
        cwd: ROOT,
        env: { ...env, PORT: String(port) },
        stdout: "ignore",
      });
      children.push(child);
      await waitForHttp(child, `http://127.0.0.1:${port}/readyz`, { okOnly: true, timeoutMs: 120_000 });
      origins.push(`http://127.0.0.1:${port}`);
    }
    const handle = await openDatabase({ databaseUrl: scratch.url, pgliteDir: "" });
    try {
      await provisionAccount(handle.db, "operator", "soak-dock", "soak-dock-secret");
      const merchants = origins.map((o) =>
        createLogisticsClient({
          baseUrl: o + BASE_PATH,
          username: `M-${DEMO.merchantId}`,
          secret: DEMO.merchantSecret,
        }),
      );
      const operators = origins.map((o) =>
        createLogisticsClient({ baseUrl: o + BASE_PATH, username: "W-soak-dock", secret: "soak-dock-secret" }),
      );
      const ep = await merchants[0]!.POST("/webhook_endpoints/_create", {
        body: {
          url: `${receiver.origin}/soak`,
          event_types: ["inbound_shipment.items_arrived", "inbound_shipment.status_changed"],
        },
      });
      if (!ep.data) throw new Error(`could not create the webhook endpoint: ${JSON.stringify(ep.error)}`);

      // Shipments to read and to record arrivals on; more are created during the run.
      const shipments: { id: string; lines: number }[] = [];
      let createSeq = 0;
      const create = async (m: LogisticsClient) => {
        const n = createSeq++;
        const r = await m.POST("/inbound_shipments/_create", {
          params: { header: { "Idempotency-Key": `soak-${n}` } },
          body: {
            merchants_ref: `SOAK-${n}`,
            sender_name: "Soak Supplier Oy",
            products: Array.from({ length: 5 }, (_, i) => ({
              merchants_id: `SOAK-SKU-${i}`,
              name: `Soak product ${i}`,
              qty: 1000,
            })),
          },
        });
        if (r.response.status === 201) shipments.push({ id: r.data!.shipment_id, lines: 5 });
        return r.response;
      };
      for (let i = 0; i < 10; i++) await create(merchants[i % instances]!);
      let acknowledgedCreates = 10;
      let acknowledgedArrivals = 0;

      const latencies: Record<Kind, number[]> = { read: [], list: [], options: [], create: [], arrival: [] };
      const statuses: Record<string, number> = {};
      let seed = 42;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const pick = (): Kind => {
        let x = random();
        for (const [kind, share] of MIX) if ((x -= share) < 0) return kind;
        return "read";
      };
      const total = Math.round(opts.seconds * opts.rate);
      const warmupAt = Math.floor(total * 0.25);
      const one = async (i: number) => {
        const kind = pick();
        const at = i % instances;
        const m = merchants[at]!;
        const target = shipments[Math.floor(random() * shipments.length)]!;
        const t0 = performance.now();
        let res: Response;
        try {
          if (kind === "read")
            res = (await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: target.id } } }))
              .response;
          else if (kind === "list")
            res = (await m.GET("/inbound_shipments", { params: { query: { limit: 20 } } })).response;
          else if (kind === "options")
            res = (await m.GET("/shipping_options", { params: { query: { postalcode: "20780", country: "FI" } } }))
              .response;
          else if (kind === "create") {
            res = await create(m);
            if (res.status === 201) acknowledgedCreates++;
          } else {
            res = (
              await operators[at]!.POST("/inbound_shipments/{shipment_id}/arrivals", {
                params: { path: { shipment_id: target.id } },
                body: { arrivals: [{ merchants_id: `SOAK-SKU-${Math.floor(random() * target.lines)}`, change: 1 }] },
              })
            ).response;
            if (res.status === 200) acknowledgedArrivals++;
          }
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        } catch (err) {
          statuses[`error ${(err as Error).name}`] = (statuses[`error ${(err as Error).name}`] ?? 0) + 1;
        }
        // Latencies after the warm-up (the first quarter: JIT, first key derivations, cold caches).
        if (i >= warmupAt) latencies[kind].push(performance.now() - t0);
        answered++;
      };

      let answered = 0;
      const startRss: number[] = [];
      const inFlight = new Set<Promise<void>>();
      const t0 = performance.now();
      log(`soak: ${total} requests at ${opts.rate}/s over ${opts.seconds} s through ${instances} instances`);
      for (let i = 0; i < total; i++) {
        const due = t0 + (i * 1000) / opts.rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (i === warmupAt) for (const c of children) startRss.push(rssMb(c.process.pid!));
        // A client's connection pool: at most MAX_IN_FLIGHT requests wait at once. Under a machine's load
        // (CI runs other suites beside this one) an unbounded open loop piles up more of one merchant's requests
        // than its concurrency allowance, and the 429s and the backlog's memory say nothing about the server.
        while (inFlight.size >= MAX_IN_FLIGHT * instances) await Promise.race(inFlight);
        const p = one(i).finally(() => inFlight.delete(p));
        inFlight.add(p);
        if (i > 0 && i % (opts.rate * 10) === 0)
          log(`  ${Math.round((performance.now() - t0) / 1000)} s: ${i} requests sent`);
      }
      await Promise.all(inFlight);
      const endRss = children.map((c) => rssMb(c.process.pid!));
      const elapsed = (performance.now() - t0) / 1000;

      // Every event must be delivered: wait for the queue to empty (a minute at most).
      const undelivered = async () =>
        Number(
          (
            await sql<{
              n: string;
            }>`select count(*) as n from webhook_deliveries where endpoint_id = ${ep.data.id} and status <> 'succeeded'`.execute(
              handle.db,
            )
          ).rows[0]!.n,
        );
      for (const until = Date.now() + 60_000; Date.now() < until && (await undelivered()) > 0;)
        await new Promise((r) => setTimeout(r, 200));

      const count = async (q: ReturnType<typeof sql<{ n: string }>>) => Number((await q.execute(handle.db)).rows[0]!.n);
      const shipmentsStored = await count(
        sql`select count(*) as n from inbound_shipments where merchants_ref like 'SOAK-%'`,
      );
      const distinctRefs = await count(
        sql`select count(distinct merchants_ref) as n from inbound_shipments where merchants_ref like 'SOAK-%'`,
      );
      const arrivalsStored = await count(
        sql`select count(*) as n from inbound_arrivals a join inbound_shipments s on s.id = a.shipment_id where s.merchants_ref like 'SOAK-%'`,
      );
      const events = await count(sql`select count(*) as n from webhook_deliveries where endpoint_id = ${ep.data.id}`);
      const delivered = await count(
        sql`select count(*) as n from webhook_deliveries where endpoint_id = ${ep.data.id} and status = 'succeeded'`,
      );

      const byKind = Object.fromEntries(
        Object.entries(latencies).map(([k, l]) => {
          const s = [...l].sort((a, b) => a - b);
          return [k, { count: s.length, p50: pct(s, 0.5), p99: pct(s, 0.99), max: s.at(-1) ?? 0 }];
        }),
      ) as SoakReport["byKind"];
      const all = Object.values(latencies)
        .flat()
        .sort((a, b) => a - b);
      const serverErrors = Object.entries(statuses)
        .filter(([s]) => /^5/.test(s))
        .reduce((n, [, c]) => n + c, 0);
      const clientErrors = Object.entries(statuses)
        .filter(([s]) => !/^[2]/.test(s) && !/^5/.test(s))
        .reduce((n, [, c]) => n + c, 0);
      const rss = children.map((_, i) => ({
        instance: i + 1,
        startMb: startRss[i]!,
        endMb: endRss[i]!,
        ratio: endRss[i]! / startRss[i]!,
      }));
      const report: SoakReport = {
        seconds: elapsed,
        requests: answered,
        byKind,
        p99: pct(all, 0.99),
        statuses,
        serverErrors,
        clientErrors,
        writes: {
          createsAcknowledged: acknowledgedCreates,
          shipmentsStored,
          duplicateRefs: shipmentsStored - distinctRefs,
          arrivalsAcknowledged: acknowledgedArrivals,
          arrivalsStored,
        },
        webhooks: {
          events,
          delivered,
          undelivered: events - delivered,
          receivedUnique: receiver.unique(),
          receivedTwice: receiver.twice(),
        },
        rss,
        problems: [],
      };
      const p = report.problems;
      if (serverErrors) p.push(`${serverErrors} answers were 5xx`);
      if (clientErrors) p.push(`${clientErrors} answers were neither 2xx nor 5xx: ${JSON.stringify(statuses)}`);
      if (shipmentsStored !== acknowledgedCreates)
        p.push(`${acknowledgedCreates} creates acknowledged, ${shipmentsStored} stored`);
      if (report.writes.duplicateRefs) p.push(`${report.writes.duplicateRefs} shipments stored twice`);
      if (arrivalsStored !== acknowledgedArrivals)
        p.push(`${acknowledgedArrivals} arrivals acknowledged, ${arrivalsStored} stored`);
      if (events === 0 || delivered !== events)
        p.push(`${events - delivered} of ${events} webhook deliveries not delivered`);
      if (receiver.unique() !== events) p.push(`the receiver got ${receiver.unique()} distinct events of ${events}`);
      if (receiver.twice()) p.push(`the receiver got ${receiver.twice()} events more than once`);
      for (const r of rss)
        if (r.ratio > (opts.rssGrowth ?? 1.2))
          p.push(`instance ${r.instance} RSS grew from ${r.startMb.toFixed(0)} MB to ${r.endMb.toFixed(0)} MB`);
      return report;
    } finally {
      await handle.close();
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await receiver.close();
    await scratch.drop();
  }
}

/** A receiver that answers 200 at once and counts each event id it is sent. */
async function startCountingReceiver() {
  const seen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = "";
    req
      .setEncoding("utf8")
      .on("data", (c) => (body += c))
      .on("end", () => {
        try {
          const id = (JSON.parse(body) as { event_id?: string }).event_id;
          if (id) seen.set(id, (seen.get(id) ?? 0) + 1);
        } catch {
          // Not an event: counted by nobody, answered anyway.
        }
        res.writeHead(200, { "content-type": "text/plain" }).end("OK");
      });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    unique: () => seen.size,
    twice: () => [...seen.values()].filter((n) => n > 1).length,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function formatReport(r: SoakReport): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const lines = [
    `${r.requests} requests in ${r.seconds.toFixed(1)} s (${(r.requests / r.seconds).toFixed(1)}/s); after the warm-up (first quarter) p99 over all ${ms(r.p99)}`,
    "kind      count     p50       p99       max",
    ...Object.entries(r.byKind).map(
      ([k, v]) =>
        `${k.padEnd(9)} ${String(v.count).padStart(5)} ${ms(v.p50).padStart(9)} ${ms(v.p99).padStart(9)} ${ms(v.max).padStart(9)}`,
    ),
    `statuses: ${JSON.stringify(r.statuses)}; 5xx: ${r.serverErrors}`,
    `writes: ${r.writes.createsAcknowledged} creates acknowledged, ${r.writes.shipmentsStored} stored (${r.writes.duplicateRefs} twice); ${r.writes.arrivalsAcknowledged} arrivals acknowledged, ${r.writes.arrivalsStored} stored`,
    `webhooks: ${r.webhooks.events} deliveries queued, ${r.webhooks.delivered} delivered, the receiver got ${r.webhooks.receivedUnique} distinct events (${r.webhooks.receivedTwice} more than once)`,
    ...r.rss.map(
      (x) =>
        `instance ${x.instance}: RSS ${x.startMb.toFixed(0)} MB after the warm-up, ${x.endMb.toFixed(0)} MB at the end (x${x.ratio.toFixed(2)})`,
    ),
    r.problems.length
      ? `FAILED:\n${r.problems.map((p) => `  - ${p}`).join("\n")}`
      : "OK: no 5xx, nothing lost or doubled, every webhook delivered, memory flat",
  ];
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const adminUrl =
    process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const seconds = Number(process.env.SOAK_SECONDS ?? 180);
  const rate = Number(process.env.SOAK_RATE ?? 50);
  if (!(seconds > 0 && seconds <= 3600) || !(rate > 0 && rate <= 1000)) {
    console.error("SOAK_SECONDS must be 1-3600 and SOAK_RATE 1-1000");
    process.exit(2);
  }
  const report = await runSoak({ adminUrl, seconds, rate, log: (l) => console.log(l) });
  console.log(formatReport(report));
  process.exit(report.problems.length ? 1 : 0);
}
