import { sql, type Kysely } from "kysely";

// An admin may reset a portal user's password to a temporary one, which the user must change at the next
// sign-in: a flag per user. Expand only: a column with a default, so the release before (which names its
// columns and never this one) reads and inserts users as it did.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("portal_users")
    .addColumn("must_change_password", "boolean", (c) => c.notNull().defaultTo(sql`false`))
    .execute();
}
