// The merchant's product catalogue, keyed by the merchant's own code. Inbound shipments and orders
// both create and update products through here.
import { sql } from "kysely";
import { rawAs, writes } from "../db/statement-ways.ts";
import type { Executor } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";

export interface CatalogueLine {
  merchants_id: string;
  name?: string;
  gtin?: string;
}

/**
 * Creates missing products and updates name/gtin where given and different: an omitted name never
 * overwrites the catalogue. Returns merchants_id -> product id.
 *
 * Existing products are read, and written only when something changed: shipments and orders naming the
 * same products then do not queue behind each other's row locks. (An ON CONFLICT DO UPDATE rewrote and
 * locked every product of every write until commit: under 50 concurrent creates of the same 10 products,
 * 8 of the 10 pooled connections waited on Lock:transactionid.)
 */
export async function upsertProducts(
  db: Executor,
  merchantId: string,
  lines: CatalogueLine[],
  now: Date,
): Promise<Map<string, string>> {
  const products = await upsertProductsDetailed(db, merchantId, lines, now);
  return new Map([...products].map(([code, p]) => [code, p.id]));
}

export interface CatalogueProduct {
  id: string;
  name: string;
  gtin: string;
}

/** `upsertProducts` that also tells each product's name and gtin as they are after it, for a caller that shows them. */
export async function upsertProductsDetailed(
  db: Executor,
  merchantId: string,
  lines: CatalogueLine[],
  now: Date,
): Promise<Map<string, CatalogueProduct>> {
  const byCode = new Map(lines.map((l) => [l.merchants_id, l]));
  const codes = [...byCode.keys()];
  if (!codes.length) return new Map();
  // One statement: the rows it inserts (name and gtin null: nothing to compare), and the ones that existed
  // before it (its snapshot). Its text does not depend on the number of products (each column an array,
  // unnested): parsed and planned once per connection, not built per request.
  const given = [...byCode.values()];
  const { rows: found } = await db.executeQuery<FoundRow>(
    rawAs<FoundRow>("write", UPSERT_PRODUCTS, [
      given.map(() => newId(now.getTime())),
      codes,
      given.map((l) => l.name ?? ""),
      given.map((l) => l.gtin ?? ""),
      merchantId,
      now,
    ]),
  );
  const ids = new Map(found.map((r) => [r.merchants_id, r.id]));
  // Inserted by another transaction that committed after this statement's snapshot: read again.
  const late = codes.filter((c) => !ids.has(c));
  const existing = found.filter((r) => r.name !== null);
  if (late.length) {
    const rows = await db
      .selectFrom("products")
      .select(["id", "merchants_id", "name", "gtin"])
      .where("merchant_id", "=", merchantId)
      .where("merchants_id", "in", late)
      .execute();
    for (const r of rows) ids.set(r.merchants_id, r.id);
    existing.push(...rows);
  }
  // Inserted rows carry what the line gave; existing ones keep what the line omits.
  const products = new Map(
    [...ids].map(([code, id]) => [
      code,
      { id, name: byCode.get(code)!.name ?? "", gtin: byCode.get(code)!.gtin ?? "" },
    ]),
  );
  const changed = existing.flatMap((r) => {
    const l = byCode.get(r.merchants_id)!;
    const name = l.name ?? r.name!;
    const gtin = l.gtin ?? r.gtin!;
    products.set(r.merchants_id, { id: r.id, name, gtin });
    return name !== r.name || gtin !== r.gtin ? [sql`(${r.id}, ${name}, ${gtin})`] : [];
  });
  if (changed.length) {
    await sql`update products as p set name = v.name, gtin = v.gtin, updated_at = ${now}
      from (values ${sql.join(changed)}) as v(id, name, gtin) where p.id = v.id::char(24)`
      .withPlugin(writes)
      .execute(db);
  }
  return products;
}

interface FoundRow {
  id: string;
  merchants_id: string;
  name: string | null;
  gtin: string | null;
}

const UPSERT_PRODUCTS = `with "ins" as (
  insert into "products" ("id", "merchant_id", "merchants_id", "name", "gtin", "created_at", "updated_at")
  select "id", $5, "merchants_id", "name", "gtin", $6, $6
  from unnest($1::char(24)[], $2::text[], $3::text[], $4::text[]) as p("id", "merchants_id", "name", "gtin")
  on conflict ("merchant_id", "merchants_id") do nothing
  returning "id", "merchants_id"
)
select "id", "merchants_id", null::text as "name", null::text as "gtin" from "ins"
union all
select "id", "merchants_id", "name", "gtin" from "products" where "merchant_id" = $5 and "merchants_id" = any($2::text[])`;

/**
 * The same upsert as common table expressions of a caller's statement, for a write that needs the products' ids
 * only in SQL (new shipments' lines): the whole write is then one statement, one round trip. Each given product
 * carries its merchant, so one statement may hold several merchants' creates (write-merges.ts). They define
 * "catalogue"("merchant_id", "merchants_id", "id") for the statement to join: a product that another transaction
 * added after the statement's snapshot is neither inserted nor seen here, so it is missing from "catalogue"; the
 * caller then writes nothing that needs it, and runs again for it (the next snapshot sees that product).
 * Its parameters are `catalogueValues`, numbered from `$first`.
 */
export function catalogueCtes(first: number): string {
  const [ids, merchants, codes, names, gtins, ats] = [0, 1, 2, 3, 4, 5].map((i) => `$${first + i}`);
  return `"catalogue_given" as (
  select * from unnest(${ids}::char(24)[], ${merchants}::text[], ${codes}::text[], ${names}::text[], ${gtins}::text[], ${ats}::timestamptz[])
    as g("new_id", "merchant_id", "merchants_id", "name", "gtin", "at")
), "catalogue_new" as (
  insert into "products" ("id", "merchant_id", "merchants_id", "name", "gtin", "created_at", "updated_at")
  select "new_id", "merchant_id", "merchants_id", coalesce("name", ''), coalesce("gtin", ''), "at", "at" from "catalogue_given"
  on conflict ("merchant_id", "merchants_id") do nothing
  returning "id", "merchant_id", "merchants_id"
), "catalogue_old" as (
  select p."id", p."merchant_id", p."merchants_id", g."at", coalesce(g."name", p."name") as "name", coalesce(g."gtin", p."gtin") as "gtin",
    (coalesce(g."name", p."name"), coalesce(g."gtin", p."gtin")) is distinct from (p."name", p."gtin") as "changed"
  from "catalogue_given" g join "products" p on p."merchant_id" = g."merchant_id" and p."merchants_id" = g."merchants_id"
), "catalogue_changed" as (
  update "products" as p set "name" = o."name", "gtin" = o."gtin", "updated_at" = o."at"
  from "catalogue_old" o where p."id" = o."id" and o."changed"
), "catalogue" as (
  select "merchant_id", "merchants_id", "id" from "catalogue_new"
  union all select "merchant_id", "merchants_id", "id" from "catalogue_old"
)`;
}

/** The parameters of `catalogueCtes`: an omitted name or gtin is null there (kept on an existing product). */
export function catalogueValues(merchantId: string, lines: CatalogueLine[], now: Date): unknown[][] {
  return [
    lines.map(() => newId(now.getTime())),
    lines.map(() => merchantId),
    lines.map((l) => l.merchants_id),
    lines.map((l) => l.name ?? null),
    lines.map((l) => l.gtin ?? null),
    lines.map(() => now),
  ];
}

/**
 * Several writes' `catalogueValues` as one: each product once (the same product twice in one statement could be
 * neither inserted twice nor updated twice), with what the writes in this order would leave it with had they run
 * one after the other: the last name and the last gtin given, the time of the last write that names it, and the
 * first write's new id.
 */
export function mergeCatalogueValues(each: unknown[][][]): unknown[][] {
  const merged: unknown[][] = [[], [], [], [], [], []];
  const at = new Map<string, number>();
  for (const [ids, merchants, codes, names, gtins, ats] of each as [
    string[],
    string[],
    string[],
    (string | null)[],
    (string | null)[],
    Date[],
  ][]) {
    for (let i = 0; i < codes.length; i++) {
      const key = `${merchants[i]}\n${codes[i]}`;
      let k = at.get(key);
      if (k === undefined) {
        k = merged[0]!.length;
        at.set(key, k);
        merged[0]!.push(ids[i]);
        merged[1]!.push(merchants[i]);
        merged[2]!.push(codes[i]);
        merged[3]!.push(null);
        merged[4]!.push(null);
        merged[5]!.push(null);
      }
      if (names[i] !== null) merged[3]![k] = names[i];
      if (gtins[i] !== null) merged[4]![k] = gtins[i];
      merged[5]![k] = ats[i];
    }
  }
  return merged;
}
