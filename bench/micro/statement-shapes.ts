// What GET shipment's statement costs the embedded database's one session, by the shape of its SQL (issue 53,
// bench/levers.md section 23): PGlite in this process (no thread, no HTTP), each shape a named prepared statement
// through node-postgres, run back to back; the figure is this process's CPU per GET (the session's work plus
// node-postgres reading the answer, both of which the server does for each GET). Shapes of several statements run
// them one after another.
//   npm run bench -- statement-shapes [rounds] [GETs per round]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { cube } from "@electric-sql/pglite/contrib/cube";
import { createPgConfig } from "@electric-sql/pglite/node-postgres";
import pg from "pg";
import { openEmbedded } from "../../server/db/database.ts";
import { DEMO } from "../../server/demo.ts";
import { shipmentOfMerchant } from "../../server/inbound/db.ts";
import { startServer } from "../targets.ts";
import { demoShipment } from "./get-shipment.ts";

const rounds = Number(process.argv[2] ?? 5);
const perRound = Number(process.argv[3] ?? 3000);

const SHIPMENT = `from inbound_shipments s where s.id = $1 and s.merchant_id = $2`;
const LINE_COLUMNS = `l.product_id, l.position, l.qty, l.purchase_price_cents, p.merchants_id, p.name, p.gtin`;
const LINES_OF_S = `from inbound_lines l join products p on p.id = l.product_id where l.shipment_id = s.id`;
/** Each shape: its statements, run one after another for one GET. */
const shapes = (current: string): Record<string, string[]> => ({
  "select 1 (the floor)": ["select 1"],
  "the shipment row only": [`select s.* ${SHIPMENT}`],
  "GET statement (today)": [current],
  "lines as rows, 1 statement": [
    `select s.*, ${LINE_COLUMNS} from inbound_shipments s left join inbound_lines l on l.shipment_id = s.id
     left join products p on p.id = l.product_id where s.id = $1 and s.merchant_id = $2 order by l.position`,
  ],
  "rows, 3 statements": [
    `select s.*, ${LINE_COLUMNS} from inbound_shipments s left join inbound_lines l on l.shipment_id = s.id
     left join products p on p.id = l.product_id where s.id = $1 and s.merchant_id = $2 order by l.position`,
    `select a.product_id, a.ts, a.change, a.operator_id, a.recorded_by from inbound_arrivals a
     join inbound_shipments s on s.id = a.shipment_id where a.shipment_id = $1 and s.merchant_id = $2 order by a.ts, a.id`,
    `select pr.* from inbound_problems pr join inbound_shipments s on s.id = pr.shipment_id
     where pr.shipment_id = $1 and s.merchant_id = $2 order by pr.created_at, pr.id`,
  ],
  "json arrays (json_build_array)": [
    `select s.*,
       (select json_agg(json_build_array(${LINE_COLUMNS}) order by l.position) ${LINES_OF_S}) as lines,
       (select json_agg(json_build_array(a.product_id, a.ts, a.change, a.operator_id, a.recorded_by) order by a.ts, a.id)
          from inbound_arrivals a where a.shipment_id = s.id) as arrivals,
       (select json_agg(json_build_array(pr.id, pr.type, pr.merchants_id, pr.description, pr.resolved, pr.created_at,
          pr.resolved_at) order by pr.created_at, pr.id) from inbound_problems pr where pr.shipment_id = s.id) as problems
     ${SHIPMENT}`,
  ],
  "json_agg(row order by)": [
    `select s.*,
       (select json_agg(l order by l.position) from (select l.shipment_id, ${LINE_COLUMNS} ${LINES_OF_S}) l) as lines,
       (select json_agg(a order by a.ts, a.id) from inbound_arrivals a where a.shipment_id = s.id) as arrivals,
       (select json_agg(pr order by pr.created_at, pr.id) from inbound_problems pr where pr.shipment_id = s.id) as problems
     ${SHIPMENT}`,
  ],
});

const scratch = mkdtempSync(path.join(tmpdir(), "bench-statement-shapes-"));
try {
  // The server creates the directory, migrates it and stores one shipment of 5 lines, as in the inbound suite.
  const server = await startServer("pglite", { database: { PGLITE_DIR: path.join(scratch, "db") }, stdout: "ignore" });
  const { id } = await demoShipment(server.origin);
  await server.child.stop();
  const handle = await openEmbedded(path.join(scratch, "db"));
  const current = shipmentOfMerchant(handle.db, id, DEMO.merchantId).compile().sql;
  await handle.close();
  const lite = await PGlite.create({
    dataDir: path.join(scratch, "db"),
    extensions: { cube },
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
  });
  const client = new pg.Client(createPgConfig(lite));
  await client.connect();
  try {
    let named = 0;
    const runs = Object.entries(shapes(current)).map(([name, texts]) => {
      const statements = texts.map((text) => ({
        name: `shape_${named++}`,
        text,
        values: text.includes("$2") ? [id, DEMO.merchantId] : text.includes("$1") ? [id] : [],
      }));
      return [
        name,
        async () => {
          for (const s of statements) await client.query(s);
        },
      ] as const;
    });
    for (const [, run] of runs) for (let i = 0; i < 500; i++) await run(); // warm-up, and past the generic plan
    const cpu: Record<string, number[]> = {};
    for (let r = 1; r <= rounds; r++)
      for (const [name, run] of runs) {
        const c = process.cpuUsage();
        for (let i = 0; i < perRound; i++) await run();
        const used = process.cpuUsage(c);
        (cpu[name] ??= []).push((used.user + used.system) / perRound);
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`CPU µs per GET, ${rounds} rounds of ${perRound}: median  (each round)`);
    for (const [name, xs] of Object.entries(cpu))
      console.log(
        `  ${name.padEnd(32)} ${median(xs).toFixed(0).padStart(5)}  (${xs.map((x) => x.toFixed(0)).join(" ")})`,
      );
  } finally {
    await client.end();
    await lite.close();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
