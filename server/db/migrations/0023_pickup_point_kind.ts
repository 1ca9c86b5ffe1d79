import { sql, type Kysely } from "kysely";
import { pickupPointKind } from "../../pickup-points/kind.ts";

// Lockers and counters (issue 51 item 3): a pickup point's normalised kind, set by imports from the carriers' free-text
// types. Expand only: a column with a default, which the release before neither reads nor writes (its imports get
// `unknown` until the next import by this release). Existing points are backfilled from their stored carrier_info
// by the one mapping (pickup-points/kind.ts), in slices by id, so a directory of a country's points never waits on
// one statement.
const SLICE = 5000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("pickup_points")
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .defaultTo("unknown")
        .check(sql`kind in ('locker', 'counter', 'unknown')`),
    )
    .execute();
  let after = "";
  for (;;) {
    const { rows } = await sql<{ id: string; carrier_info: Parameters<typeof pickupPointKind>[0] }>`
      select id, carrier_info from pickup_points where id > ${after} order by id limit ${SLICE}
    `.execute(db);
    if (rows.length === 0) break;
    const kinds = rows
      .map((r) => ({ id: r.id, kind: pickupPointKind(r.carrier_info) }))
      .filter((r) => r.kind !== "unknown");
    if (kinds.length > 0)
      await sql`
        update pickup_points p set kind = r.kind
        from jsonb_to_recordset(${JSON.stringify(kinds)}::jsonb) as r(id text, kind text)
        where p.id = r.id
      `.execute(db);
    after = rows[rows.length - 1]!.id;
  }
}
