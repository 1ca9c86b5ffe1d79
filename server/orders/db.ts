// Order queries. Every read and write filters by the merchant: another merchant's order does not exist here.
import { type Selectable } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { Database } from "../db/schema.ts";
import type { Executor } from "../db/transaction.ts";

export type OrderRow = Selectable<Database["orders"]>;
export type LineRow = Selectable<Database["order_lines"]>;
type OrderValues = Omit<OrderRow, "customer" | "tags" | "shipping_quote"> & {
  customer: string;
  tags: string;
  shipping_quote: string | null;
};

export async function insertOrder(db: Executor, row: OrderValues): Promise<void> {
  await db.insertInto("orders").values(row).execute();
}

export async function updateOrder(
  db: Executor,
  id: string,
  changes: Partial<Pick<OrderValues, "merchants_ref" | "customer" | "tags" | "destination" | "shipping_quote">> & {
    updated_at: Date;
  },
): Promise<void> {
  await db.updateTable("orders").set(changes).where("id", "=", id).execute();
}

export async function replaceLines(db: Executor, orderId: string, lines: LineRow[]): Promise<void> {
  await db.deleteFrom("order_lines").where("order_id", "=", orderId).execute();
  if (lines.length) await db.insertInto("order_lines").values(lines).execute();
}

/** Takes the row lock that serializes writers of one order; undefined when absent or another merchant's. */
export async function lockOrder(db: Executor, merchantId: string, id: string): Promise<OrderRow | undefined> {
  return db
    .selectFrom("orders")
    .selectAll()
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .forUpdate()
    .executeTakeFirst();
}

/** The order with its lines in one query. */
export async function findOrder(
  db: Executor,
  merchantId: string,
  id: string,
): Promise<(OrderRow & { lines: LineRow[] }) | undefined> {
  return db
    .selectFrom("orders as o")
    .selectAll("o")
    .select((eb) =>
      jsonArrayFrom(
        eb.selectFrom("order_lines as l").selectAll("l").whereRef("l.order_id", "=", "o.id").orderBy("l.position"),
      ).as("lines"),
    )
    .where("o.id", "=", id)
    .where("o.merchant_id", "=", merchantId)
    .executeTakeFirst();
}
