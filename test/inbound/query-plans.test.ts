// Reads stay flat as a merchant's shipments grow: on 100,000 generated shipments (300,000 lines), every
// statement that reading one shipment or a page of the list sends is planned without a sequential scan of
// the shipment tables. The statements are the ones the domain code really sends (captured by Kysely's log).
// PostgreSQL only: its planner decides what production does (PGlite runs the same planner, on one process).
import { Kysely, PostgresDialect, type CompiledQuery } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../server/accounts/domain.ts";
import type { Database } from "../../server/db/schema.ts";
import { seedDemo, DEMO } from "../../server/demo.ts";
import { getShipment, listShipments } from "../../server/inbound/queries.ts";
import { generatedShipmentId, generateShipments } from "../../tools/generate-shipments.ts";
import { createTestDatabase } from "../helpers/database.ts";

const COUNT = 100_000;
const SCANNED_TABLES = ["inbound_shipments", "inbound_lines", "inbound_arrivals", "inbound_problems", "inbound_status_history", "products"];

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;
let logged: CompiledQuery[] = [];
let db: Kysely<Database>;
const merchant: Principal = { role: "merchant", id: DEMO.merchantId, name: `M-${DEMO.merchantId}` };

beforeAll(async () => {
  handle = await createTestDatabase();
  await seedDemo(handle.db);
  await generateShipments(handle.db, { merchantId: DEMO.merchantId, count: COUNT });
  pool = new pg.Pool({ connectionString: handle.url, max: 2 });
  db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (e) => void logged.push(e.query) });
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await handle?.close();
});

interface PlanNode { "Node Type": string; "Relation Name"?: string; Plans?: PlanNode[] }
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** Runs `read`, then EXPLAINs each statement it sent; returns the sequential scans of shipment tables. */
async function seqScansOf(read: () => Promise<unknown>): Promise<string[]> {
  logged = [];
  await read();
  expect(logged.length).toBeGreaterThan(0);
  const scans: string[] = [];
  for (const q of logged) {
    const { rows } = await pool.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`explain (format json) ${q.sql}`, q.parameters as unknown[]);
    for (const n of nodes(rows[0]!["QUERY PLAN"][0]!.Plan)) {
      if (n["Node Type"] === "Seq Scan" && SCANNED_TABLES.includes(n["Relation Name"] ?? "")) scans.push(`${n["Relation Name"]} in: ${q.sql.slice(0, 120)}`);
    }
  }
  return scans;
}

describe(`query plans on ${COUNT.toLocaleString("en")} shipments (PostgreSQL)`, () => {
  it("reading one shipment uses the indexes", async () => {
    const id = generatedShipmentId(COUNT / 2);
    expect(await seqScansOf(async () => expect((await getShipment(db, merchant, id)).id).toBe(id))).toEqual([]);
  });

  it("the list's first page, next page, reference search, status filter and updated_since use the indexes", async () => {
    const first = await listShipments(db, merchant, { limit: 50 });
    expect(first.items).toHaveLength(50);
    const queries = [
      { limit: 50 },
      { limit: 50, cursor: first.next_cursor! },
      { merchants_ref: `GEN-${COUNT - 7}` },
      { status: ["processed" as const], limit: 100 },
      { status: ["en_route" as const, "initial" as const] },
      { updated_since: new Date(Date.now() - 86_400_000).toISOString() },
    ];
    for (const query of queries) {
      expect(await seqScansOf(() => listShipments(db, merchant, query)), JSON.stringify(query)).toEqual([]);
    }
  });

  it("the reference search finds the one generated shipment", async () => {
    const page = await listShipments(db, merchant, { merchants_ref: `GEN-${COUNT - 7}` });
    expect(page.items.map((s) => s.id)).toEqual([generatedShipmentId(COUNT - 7)]);
  });
});
