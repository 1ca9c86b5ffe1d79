// Shipping settings and price lists of a merchant. Every query filters by the merchant.
import { sql, type Selectable } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import { reads } from "../db/statement-ways.ts";

export type SettingsRow = Selectable<Database["shipping_settings"]>;
export type PriceListRow = Selectable<Database["price_lists"]>;
type PriceListValues = Omit<PriceListRow, "pricing_rules" | "modification_rules"> & {
  pricing_rules: string;
  modification_rules: string;
};

export async function findSettings(db: Executor, merchantId: string): Promise<SettingsRow | undefined> {
  return db.selectFrom("shipping_settings").selectAll().where("merchant_id", "=", merchantId).executeTakeFirst();
}

/** Serializes writers of one merchant's settings (the row may not exist yet, so a row lock cannot). */
export async function lockSettings(trx: Tx, merchantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('shipping_settings'), hashtext(${merchantId}))`.execute(trx);
}

/** A settings row as written: jsonb as its JSON text. */
export type SettingsValues = Omit<SettingsRow, "delivery_times"> & { delivery_times: string | null };

export async function upsertSettings(db: Executor, row: SettingsValues): Promise<void> {
  const { merchant_id: _, ...changes } = row;
  await db
    .insertInto("shipping_settings")
    .values(row)
    .onConflict((oc) => oc.column("merchant_id").doUpdateSet(changes))
    .execute();
}

export async function listPriceLists(db: Executor, merchantId: string): Promise<PriceListRow[]> {
  return db.selectFrom("price_lists").selectAll().where("merchant_id", "=", merchantId).orderBy("method").execute();
}

export async function findPriceList(
  db: Executor,
  merchantId: string,
  id: string,
  forUpdate = false,
): Promise<PriceListRow | undefined> {
  const q = db.selectFrom("price_lists").selectAll().where("id", "=", id).where("merchant_id", "=", merchantId);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

/** Inserts unless the merchant already has a list for the method; false then. */
export async function insertPriceList(db: Executor, row: PriceListValues): Promise<boolean> {
  const inserted = await db
    .insertInto("price_lists")
    .values(row)
    .onConflict((oc) => oc.columns(["merchant_id", "method"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Replaces a list's content; false when another list of the merchant already has the new method (checked first;
 * a concurrent change to the same method is caught by the unique constraint).
 */
export async function updatePriceList(
  db: Executor,
  merchantId: string,
  id: string,
  changes: Omit<PriceListValues, "id" | "merchant_id" | "created_at">,
): Promise<boolean> {
  const taken = await db
    .selectFrom("price_lists")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("method", "=", changes.method)
    .where("id", "!=", id)
    .executeTakeFirst();
  if (taken) return false;
  try {
    await db
      .updateTable("price_lists")
      .set(changes)
      .where("id", "=", id)
      .where("merchant_id", "=", merchantId)
      .execute();
  } catch (err) {
    if ((err as { code?: string }).code === "23505") return false; // unique_violation
    throw err;
  }
  return true;
}

export async function deletePriceList(db: Executor, merchantId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom("price_lists")
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export interface ConfigRow {
  settings: SettingsRow | null;
  lists: PriceListRow[];
}

/** A merchant's settings and price lists in one round trip: what every shipping options answer needs. */
export async function loadConfig(db: Executor, merchantId: string): Promise<ConfigRow> {
  const { rows } = await sql<{
    settings: (Omit<SettingsRow, "updated_at"> & { updated_at: string }) | null;
    lists: (Omit<PriceListRow, "created_at" | "updated_at"> & { created_at: string; updated_at: string })[];
  }>`
    select
      (select to_jsonb(s) from shipping_settings s where s.merchant_id = ${merchantId}) as settings,
      coalesce((select jsonb_agg(to_jsonb(l) order by l.method) from price_lists l where l.merchant_id = ${merchantId}), '[]'::jsonb) as lists
  `
    .withPlugin(reads)
    .execute(db);
  const r = rows[0]!;
  return {
    settings: r.settings && { ...r.settings, updated_at: new Date(r.settings.updated_at) },
    lists: r.lists.map((l) => ({ ...l, created_at: new Date(l.created_at), updated_at: new Date(l.updated_at) })),
  };
}
