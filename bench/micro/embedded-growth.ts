// Whether GET shipment on the embedded database stays as fast while creates grow its tables. PGlite has no
// autovacuum: before db/upkeep.ts, a statement planned while the tables were small kept that plan, and each round
// of creates made the reads slower until the server restarted. Each server starts on a new PGlite directory,
// seeds one shipment and reads it, then alternates rounds of creates (10 lines, 50 connections) with a round of
// GETs; the figure is the CPU per GET of each of its threads (the request thread, the database's thread), from
// /proc. With an argument, another build (a tree's dist/server/main.js) runs in the same rounds, on its own
// directory: a before and after with the machine's noise hitting both.
//   npm run bench -- embedded-growth [rounds] [seconds] [other dist/server/main.js]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogisticsClient } from "../../client/index.ts";
import { BASE_PATH } from "../../server/app.ts";
import { CASES, createShipment, MERCHANT_AUTH } from "../cases.ts";
import { threadMicros } from "../cpu.ts";
import { measure } from "../measure.ts";
import { startServer, type Target } from "../targets.ts";

const rounds = Number(process.argv[2] ?? 4);
const seconds = Number(process.argv[3] ?? 5);
const other = process.argv[4];
const scratch = mkdtempSync(path.join(tmpdir(), "logistics-growth-"));

interface Server {
  label: string;
  target: Target<string>;
  get: ReturnType<(typeof CASES)[number]["request"]>;
}

const create = CASES.find((c) => c.name === "create-shipment")!.request(undefined);
const servers: Server[] = [];
try {
  for (const [label, entry] of [["this tree", undefined], ...(other ? [["other", other]] : [])] as const) {
    const target = await startServer(label === "this tree" ? "pglite" : "before", {
      database: { PGLITE_DIR: path.join(scratch, label.replace(" ", "-")) },
      stdout: "ignore",
      entry,
    });
    const api = createLogisticsClient({ baseUrl: target.origin + BASE_PATH, headers: MERCHANT_AUTH });
    const id = await createShipment(api);
    servers.push({ label, target, get: CASES.find((c) => c.name === "get-shipment")!.request(id) });
  }
  const pid = (s: Server) => s.target.child.process.pid!;
  /** One round of GETs: req/s, and CPU per GET of the request thread (the process's first) and of the busiest other. */
  const reads = async (s: Server) => {
    const before = threadMicros(pid(s));
    const f = await measure(s.target.origin, s.get, { seconds, connections: 50 });
    const after = threadMicros(pid(s));
    const per = [...after].map(([tid, us]) => [tid, (us - (before.get(tid) ?? 0)) / f.requests] as const);
    const main = per.find(([tid]) => tid === String(pid(s)))![1];
    const others = per.filter(([tid]) => tid !== String(pid(s))).sort((a, b) => b[1] - a[1]);
    return `${f.rps.toFixed(0).padStart(5)} req/s, request thread ${main.toFixed(0).padStart(5)} µs, busiest other thread ${(others[0]?.[1] ?? 0).toFixed(0).padStart(5)} µs`;
  };
  for (const s of servers) {
    await measure(s.target.origin, s.get, { seconds: 1, connections: 50 }); // warm-up
    console.log(`${s.label.padEnd(10)} before any create: ${await reads(s)}`);
  }
  for (let r = 1; r <= rounds; r++) {
    for (const s of servers) {
      const c = await measure(s.target.origin, create, { seconds, connections: 50 });
      if (c.non2xx || c.errors) throw new Error(`${s.label}: ${c.non2xx} creates answered non-2xx, ${c.errors} errors`);
      console.log(
        `${s.label.padEnd(10)} after ${String(r).padStart(2)} round(s) of creates (${c.rps.toFixed(0)}/s): ${await reads(s)}`,
      );
    }
  }
} finally {
  for (const s of servers) await s.target.child.stop();
  rmSync(scratch, { recursive: true, force: true });
}
