// Pickup point directory queries. The directory is shared by every merchant: no merchant filter here.
import { sql, type Selectable } from "kysely";
import type { components } from "../../generated/api.ts";
import type { Database } from "../db/schema.ts";
import type { Executor } from "../db/transaction.ts";
import type { PostalCodeLocation } from "./geonames-format.ts";
import { reads } from "../db/statement-ways.ts";

type PickupPoint = components["schemas"]["PickupPoint"];

/** A directory row as the queries read it (the index column and timestamps left out). */
export type PointRow = Omit<Selectable<Database["pickup_points"]>, "position" | "created_at" | "updated_at">;

const POINT_COLUMNS = sql`id, name, address, postalcode, city, country, lat, lon, branch, location_info, carrier_info, kind`;

/** jsonb keeps keys in its own order: give each carrier's fields in the spec's order, as imported. */
function carrierInfo(stored: PickupPoint["carrier_info"]): PickupPoint["carrier_info"] {
  const out: PickupPoint["carrier_info"] = {};
  for (const [carrier, info] of Object.entries(stored)) {
    const { id, label_name, type, office } = info;
    out[carrier] = {
      id,
      ...(label_name !== undefined && { label_name }),
      ...(type !== undefined && { type }),
      ...(office !== undefined && { office }),
    };
  }
  return out;
}

export const toPickupPoint = (r: PointRow): PickupPoint => ({
  id: r.id,
  name: r.name,
  address: r.address,
  postalcode: r.postalcode,
  city: r.city,
  country: r.country,
  coordinates: [r.lat, r.lon],
  branch: r.branch,
  location_info: r.location_info,
  carrier_info: carrierInfo(r.carrier_info),
  kind: r.kind,
});

export async function findPoint(db: Executor, id: string): Promise<PointRow | undefined> {
  const { rows } = await sql<PointRow>`select ${POINT_COLUMNS} from pickup_points where id = ${id}`
    .withPlugin(reads)
    .execute(db);
  return rows[0];
}

/** The branches the directory holds points of, with their number of points, sorted by branch. */
export async function branchCounts(db: Executor): Promise<{ branch: string; points: number }[]> {
  const { rows } = await sql<{ branch: string; points: string | number }>`
    select branch, count(*) as points from pickup_points group by branch order by branch collate "C"
  `
    .withPlugin(reads)
    .execute(db);
  return rows.map((r) => ({ branch: r.branch, points: Number(r.points) }));
}

/** Whether the directory covers the country: its operator imported the country's postal codes (one index probe). */
export async function coversCountry(db: Executor, country: string): Promise<boolean> {
  const { rows } = await sql`select 1 from postal_code_locations where country = ${country} limit 1`
    .withPlugin(reads)
    .execute(db);
  return rows.length > 0;
}

// The GiST index on `position` (a unit vector, see 0002_shipping.ts) hands out points nearest first by chord
// length, which orders exactly as great-circle distance does. The country is checked on the way.
const unitVector = (lat: Expr, lon: Expr) =>
  sql`cube(array[cos(radians(${lat})) * cos(radians(${lon})), cos(radians(${lat})) * sin(radians(${lon})), sin(radians(${lat}))])`;
type Expr = ReturnType<typeof sql> | number;

export type NearestRow = PointRow & { rank: number; origin_lat: number; origin_lon: number };

/**
 * The common case in one round trip: the customer's location from the postal code's own location, else the centre
 * of the directory's points in it, and the `limit` points of the country nearest to it. No row: neither is known.
 * A row with a null id: the location is known but the country has no points.
 */
export async function nearestToPostalCode(
  db: Executor,
  country: string,
  postalcode: string,
  limit: number,
): Promise<NearestRow[]> {
  const { rows } = await sql<NearestRow>`
    with origin as (
      (select 1 as rank, lat, lon from postal_code_locations where country = ${country} and postalcode = ${postalcode})
      union all
      (select 2, avg(lat), avg(lon) from pickup_points where country = ${country} and postalcode = ${postalcode} having count(*) > 0)
      limit 1
    )
    select o.rank, o.lat as origin_lat, o.lon as origin_lon, p.*
    from origin o left join lateral (
      select ${POINT_COLUMNS} from pickup_points where country = ${country}
      order by position <-> ${unitVector(sql`o.lat`, sql`o.lon`)}
      limit ${limit}
    ) p on true
  `
    .withPlugin(reads)
    .execute(db);
  return rows;
}

// ------------------------------------------------------------------------------------------------
// Imports: one statement per chunk of records, passed as one JSON parameter (no parameter limit, one
// statement text). Rows that would not change are left alone, so re-importing a file reports them.

export interface UpsertCounts {
  inserted: number;
  updated: number;
}

const CHUNK = 5000;

async function countUpserts(
  run: (json: string) => Promise<{ inserted: boolean }[]>,
  items: unknown[],
): Promise<UpsertCounts> {
  const counts = { inserted: 0, updated: 0 };
  for (let i = 0; i < items.length; i += CHUNK) {
    for (const r of await run(JSON.stringify(items.slice(i, i + CHUNK)))) counts[r.inserted ? "inserted" : "updated"]++;
  }
  return counts;
}

export async function upsertPoints(db: Executor, points: readonly PickupPoint[], now: Date): Promise<UpsertCounts> {
  const rows = points.map((p) => ({ ...p, lat: p.coordinates[0], lon: p.coordinates[1], coordinates: undefined }));
  return countUpserts(
    async (json) =>
      (
        await sql<{ inserted: boolean }>`
    insert into pickup_points as p (id, name, address, postalcode, city, country, lat, lon, branch, location_info, carrier_info, kind, created_at, updated_at)
    select id, name, address, postalcode, city, country, lat, lon, branch, location_info, carrier_info, kind, ${now}::timestamptz, ${now}::timestamptz
    from jsonb_to_recordset(${json}::jsonb) as r(id text, name text, address text, postalcode text, city text, country text,
      lat float8, lon float8, branch text, location_info text, carrier_info jsonb, kind text)
    on conflict (id) do update set
      name = excluded.name, address = excluded.address, postalcode = excluded.postalcode, city = excluded.city,
      country = excluded.country, lat = excluded.lat, lon = excluded.lon, branch = excluded.branch,
      location_info = excluded.location_info, carrier_info = excluded.carrier_info, kind = excluded.kind,
      updated_at = excluded.updated_at
    where (p.name, p.address, p.postalcode, p.city, p.country, p.lat, p.lon, p.branch, p.location_info, p.carrier_info, p.kind)
      is distinct from (excluded.name, excluded.address, excluded.postalcode, excluded.city, excluded.country,
        excluded.lat, excluded.lon, excluded.branch, excluded.location_info, excluded.carrier_info, excluded.kind)
    returning (xmax = 0) as inserted
  `.execute(db)
      ).rows,
    rows,
  );
}

export async function upsertPostalCodes(
  db: Executor,
  locations: readonly PostalCodeLocation[],
  now: Date,
): Promise<UpsertCounts> {
  const rows = locations.map((l) => ({ ...l, lat: l.coordinates[0], lon: l.coordinates[1], coordinates: undefined }));
  return countUpserts(
    async (json) =>
      (
        await sql<{ inserted: boolean }>`
    insert into postal_code_locations as l (country, postalcode, place_name, admin_name1, admin_code1, admin_name2, admin_code2,
      admin_name3, admin_code3, lat, lon, accuracy, created_at, updated_at)
    select country, postalcode, place_name, admin_name1, admin_code1, admin_name2, admin_code2, admin_name3, admin_code3,
      lat, lon, accuracy, ${now}::timestamptz, ${now}::timestamptz
    from jsonb_to_recordset(${json}::jsonb) as r(country text, postalcode text, place_name text, admin_name1 text,
      admin_code1 text, admin_name2 text, admin_code2 text, admin_name3 text, admin_code3 text, lat float8, lon float8, accuracy smallint)
    on conflict (country, postalcode) do update set
      place_name = excluded.place_name, admin_name1 = excluded.admin_name1, admin_code1 = excluded.admin_code1,
      admin_name2 = excluded.admin_name2, admin_code2 = excluded.admin_code2, admin_name3 = excluded.admin_name3,
      admin_code3 = excluded.admin_code3, lat = excluded.lat, lon = excluded.lon, accuracy = excluded.accuracy,
      updated_at = excluded.updated_at
    where (l.place_name, l.admin_name1, l.admin_code1, l.admin_name2, l.admin_code2, l.admin_name3, l.admin_code3, l.lat, l.lon, l.accuracy)
      is distinct from (excluded.place_name, excluded.admin_name1, excluded.admin_code1, excluded.admin_name2, excluded.admin_code2,
        excluded.admin_name3, excluded.admin_code3, excluded.lat, excluded.lon, excluded.accuracy)
    returning (xmax = 0) as inserted
  `.execute(db)
      ).rows,
    rows,
  );
}

/**
 * Fresh planner statistics after a bulk change. Without them PostgreSQL may take `country = $1` for selective and
 * sort every point instead of walking the nearest-point index; PGlite never analyzes by itself. Inside the import's
 * transaction, so the statistics commit with the rows.
 */
export async function analyzeDirectory(db: Executor): Promise<void> {
  await sql`analyze pickup_points`.execute(db);
  await sql`analyze postal_code_locations`.execute(db);
}
