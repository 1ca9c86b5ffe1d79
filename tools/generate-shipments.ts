// Loads many inbound shipments into a migrated database for scale benchmarks and index tests:
//   npm run generate:shipments -- --count 1000000 [--merchant demo.example.com] [--lines 3]
//   (DATABASE_URL names the database; PGlite works too, with PGLITE_DIR, but slowly at this size)
// The rows are made by the database itself (INSERT ... SELECT generate_series), in batches of 20,000
// shipments, so a million shipments with three lines each load in well under a minute on PostgreSQL, and each
// statement stays within the client's query timeout (statement timeout + 1 s) on a busy machine too (the trigram
// indexes of migration 0015 made a batch of 100,000 take seconds).
// Shipments get ids that cannot collide with the service's own (they start with "ee"), references
// "GEN-<n>", statuses spread like a live account (mostly processed), and update times over two years.
import { parseArgs } from "node:util";
import { sql } from "kysely";
import type { Db } from "../server/db/database.ts";

const BATCH = 20_000;
/** A catalogue that grows with the account: one product for every 20 shipments, 500 to 50,000. */
const catalogueSize = (shipments: number) => Math.min(50_000, Math.max(500, Math.ceil(shipments / 20)));

/** The id of generated shipment n (0-based): 24 hex digits, as the API's ids. */
export const generatedShipmentId = (n: number) => `ee${n.toString(16).padStart(22, "0")}`;

export interface GenerateOptions {
  merchantId: string;
  /** Generated shipments wanted in all: those already there (from an earlier call) are kept. */
  count: number;
  linesPerShipment?: number;
  onProgress?: (done: number) => void;
}

/** Generates shipments up to `count` (earlier generated ones stay) and analyzes the tables; returns how many it added. */
export async function generateShipments(db: Db, opts: GenerateOptions): Promise<number> {
  const lines = opts.linesPerShipment ?? 3;
  const PRODUCTS = catalogueSize(opts.count);
  if (!Number.isInteger(opts.count) || opts.count < 0)
    throw new Error(`count must be a whole number, got ${opts.count}`);
  if (!Number.isInteger(lines) || lines < 1 || lines > 500) throw new Error(`lines must be 1 to 500, got ${lines}`);
  await sql`
    insert into products (id, merchant_id, merchants_id, name, gtin)
    select 'dd' || lpad(to_hex(g), 22, '0'), ${opts.merchantId}, 'GEN-SKU-' || g, 'Generated product ' || g, ''
    from generate_series(0, ${PRODUCTS - 1}) g
    on conflict do nothing`.execute(db);
  const superuser =
    (await sql<{ on: string }>`select current_setting('is_superuser') as on`.execute(db)).rows[0]?.on === "on";
  const { rows } = await sql<{ n: string }>`select count(*) as n from inbound_shipments where id like 'ee%'`.execute(
    db,
  );
  const from = Number(rows[0]!.n);
  for (let start = from; start < opts.count; start += BATCH) {
    const end = Math.min(start + BATCH, opts.count) - 1;
    await db.transaction().execute(async (trx) => {
      await sql`set local statement_timeout = 0`.execute(trx);
      // The rows reference each other correctly by construction: skip the foreign-key triggers (a third of the
      // load time). Needs a superuser, as the benchmark's scratch database has; otherwise the checks just run.
      if (superuser) await sql`set local session_replication_role = replica`.execute(trx);
      await sql`
        insert into inbound_shipments (id, merchant_id, merchants_ref, sender_name, status, created_at, updated_at)
        select 'ee' || lpad(to_hex(g), 22, '0'), ${opts.merchantId}, 'GEN-' || g, 'Generated Supplier ' || (g % 97),
          (array['processed','processed','processed','processed','processed','processed','cancelled','deleted','initial','en_route'])[1 + g % 10],
          t - interval '1 day', t
        from (select g, now() - (interval '730 days' * ((g::bigint * 7919) % 1000003) / 1000003.0) as t from generate_series(${start}::int, ${end}::int) g) s`.execute(
        trx,
      );
      await sql`
        insert into inbound_lines (shipment_id, product_id, position, qty, purchase_price_cents)
        select 'ee' || lpad(to_hex(g), 22, '0'), 'dd' || lpad(to_hex((g * ${lines} + k) % ${PRODUCTS}), 22, '0'), k, 10 + (g + k) % 90, null
        from generate_series(${start}::int, ${end}::int) g, generate_series(0, ${lines - 1}) k`.execute(trx);
      await sql`
        insert into inbound_status_history (shipment_id, from_status, to_status, actor, created_at)
        select 'ee' || lpad(to_hex(g), 22, '0'), null, 'initial', 'generator', now()
        from generate_series(${start}::int, ${end}::int) g`.execute(trx);
    });
    opts.onProgress?.(end + 1);
  }
  // As autovacuum leaves a live account's tables: statistics, and the trigram indexes' pending entries merged (the
  // planner prices a GIN index with a long pending list as if it were a sequential scan).
  await sql`vacuum analyze inbound_shipments, inbound_lines, inbound_status_history, products`.execute(db);
  return Math.max(0, opts.count - from);
}

// `npm run generate:shipments`
if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { count: { type: "string" }, merchant: { type: "string" }, lines: { type: "string" } },
  });
  const { openDatabase } = await import("../server/db/database.ts");
  const { migrateToLatest } = await import("../server/db/migrate.ts");
  const handle = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    pgliteDir: process.env.PGLITE_DIR || "./data/pglite",
    statementTimeoutMs: 0,
  });
  const t0 = Date.now();
  try {
    await migrateToLatest(handle.db);
    const merchantId = values.merchant ?? "demo.example.com";
    const known = await handle.db.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst();
    if (!known)
      throw new Error(`no merchant ${merchantId}: create it first (npm run cli -- merchant create ${merchantId})`);
    const added = await generateShipments(handle.db, {
      merchantId,
      count: Number(values.count ?? 100_000),
      linesPerShipment: Number(values.lines ?? 3),
      onProgress: (n) => process.stdout.write(`\r${n} shipments`),
    });
    console.log(`\nadded ${added} shipments in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await handle.close();
  }
}
