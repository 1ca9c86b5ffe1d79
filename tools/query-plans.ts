// The statements a piece of domain code sends, captured and EXPLAINed: used by the query-plan test and the
// scale benchmark to show that reads use indexes (no sequential scan of the tables that grow).
import { Kysely, PostgresDialect, type CompiledQuery } from "kysely";
import pg from "pg";
import type { Database } from "../server/db/schema.ts";

/** Tables that grow with a merchant's history: never read whole by a request. */
export const GROWING_TABLES = [
  "inbound_shipments",
  "inbound_lines",
  "inbound_arrivals",
  "inbound_problems",
  "inbound_status_history",
  "products",
];

/**
 * Below this many rows a sequential scan is the planner's right choice (a 500-product catalogue is hashed
 * faster than probed); the check is about what happens as the tables grow.
 */
const SMALL_TABLE_ROWS = 10_000;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

export interface PlanProbe {
  /** A Kysely whose statements are recorded; give it to the domain code. */
  db: Kysely<Database>;
  /** Runs `read` and returns the sequential scans of growing tables (of 10,000 rows or more) in the plans of what it sent. */
  seqScansOf(read: (db: Kysely<Database>) => Promise<unknown>): Promise<{ statements: number; scans: string[] }>;
  close(): Promise<void>;
}

export function planProbe(databaseUrl: string): PlanProbe {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let logged: CompiledQuery[] = [];
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (e) => void logged.push(e.query) });
  return {
    db,
    async seqScansOf(read) {
      logged = [];
      await read(db);
      const sent = logged;
      const scans: string[] = [];
      const { rows: sizes } = await pool.query<{ relname: string; rows: number }>(
        "select relname, reltuples::float8 as rows from pg_class where relname = any($1)",
        [GROWING_TABLES],
      );
      const large = new Set(sizes.filter((t) => t.rows >= SMALL_TABLE_ROWS).map((t) => t.relname));
      for (const q of sent) {
        const { rows } = await pool.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
          `explain (format json) ${q.sql}`,
          q.parameters as unknown[],
        );
        for (const n of nodes(rows[0]!["QUERY PLAN"][0]!.Plan)) {
          if (n["Node Type"] === "Seq Scan" && large.has(n["Relation Name"] ?? ""))
            scans.push(`${n["Relation Name"]} in: ${q.sql.slice(0, 120)}`);
        }
      }
      return { statements: sent.length, scans };
    },
    close: () => db.destroy(),
  };
}
