// Can any arrangement of the embedded database (on the request thread, in a worker, in a child process behind
// pglite-socket) serve GET shipment at the target's share of the bare app's req/s? PGlite is one PostgreSQL
// session: every statement of every request runs on it one after another, so its time per statement is a hard
// bound on req/s wherever it runs. This measures that time alone: the server's own GET statement, run back to
// back on the embedded database in this process (no HTTP, no edge), beside the bare app's req/s in the same run.
//   npm run bench -- pglite-budget [rounds] [statements per round]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { DEMO } from "../../server/demo.ts";
import { openEmbedded } from "../../server/db/database.ts";
import { shipmentOfMerchant } from "../../server/inbound/db.ts";
import { MERCHANT_AUTH } from "../cases.ts";
import { measure } from "../measure.ts";
import { startBaseline, startServer } from "../targets.ts";
import { demoShipment } from "./get-shipment.ts";

const rounds = Number(process.argv[2] ?? 5);
const perRound = Number(process.argv[3] ?? 2000);
const share = 0.25; // issue 27's target for GET shipment on PGlite

const scratch = mkdtempSync(path.join(tmpdir(), "bench-pglite-budget-"));
try {
  // The server creates the directory, migrates it and stores one shipment of 5 lines, as in the inbound suite.
  const server = await startServer("pglite", { database: { PGLITE_DIR: path.join(scratch, "db") }, stdout: "ignore" });
  const { id, path: p, answer } = await demoShipment(server.origin);
  await server.child.stop();
  const baseline = await startBaseline([answer], scratch);
  const handle = await openEmbedded(path.join(scratch, "db"));
  try {
    // Compiled once, as the server's precompiled statement: what is timed is the database's part.
    const getStatement = shipmentOfMerchant(handle.db, id, DEMO.merchantId).compile();
    const one = sql`select 1`.compile(handle.db);
    const statements = {
      "GET statement": () => handle.db.executeQuery(getStatement),
      "select 1": () => handle.db.executeQuery(one),
    };
    for (const run of Object.values(statements)) for (let i = 0; i < 200; i++) await run(); // warm-up
    await measure(baseline.origin, { method: "GET", path: p, headers: MERCHANT_AUTH }, { seconds: 1, connections: 50 });
    const wall: Record<string, number[]> = {};
    const cpu: Record<string, number[]> = {};
    const bare: number[] = [];
    console.log("round  what              µs per statement (wall)   CPU µs   | bare app req/s");
    for (let r = 1; r <= rounds; r++) {
      for (const [name, run] of Object.entries(statements)) {
        const c = process.cpuUsage();
        const t = performance.now();
        for (let i = 0; i < perRound; i++) await run();
        const us = ((performance.now() - t) * 1000) / perRound;
        const used = process.cpuUsage(c);
        (wall[name] ??= []).push(us);
        (cpu[name] ??= []).push((used.user + used.system) / perRound);
        console.log(
          `${String(r).padEnd(6)} ${name.padEnd(17)} ${us.toFixed(0).padStart(24)}   ${((used.user + used.system) / perRound).toFixed(0).padStart(6)}`,
        );
      }
      const f = await measure(
        baseline.origin,
        { method: "GET", path: p, headers: MERCHANT_AUTH },
        { seconds: 5, connections: 50 },
      );
      bare.push(f.rps);
      console.log(`${String(r).padEnd(6)} bare app${" ".repeat(44)}| ${Math.round(f.rps)}`);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const budget = 1e6 / (share * median(bare));
    const get = median(wall["GET statement"]!);
    console.log(`\nmedian of ${rounds} rounds:`);
    console.log(
      `  bare app ${Math.round(median(bare))} req/s: ${share}x is ${Math.round(share * median(bare))} req/s, ${budget.toFixed(0)} µs of the one session per request`,
    );
    for (const name of Object.keys(statements))
      console.log(
        `  ${name}: ${median(wall[name]!).toFixed(0)} µs a statement (CPU ${median(cpu[name]!).toFixed(0)} µs)`,
      );
    console.log(
      `  the GET statement alone allows at most ${Math.round(1e6 / get)} req/s = ${(1e6 / get / median(bare)).toFixed(2)}x the bare app, with no HTTP, no edge and the session never idle`,
    );
  } finally {
    await handle.close();
    await baseline.child.stop();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
